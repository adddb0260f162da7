// Reasoning state of one family carried through a caller of another protocol. The caller gets
// it as one opaque string in a field it echoes on its next turn (a thinking block's signature,
// a thoughtSignature, encrypted_content, a tool-call id...) and the gateway reads it back from
// that field. The string is canonical base64 (Gemini's thoughtSignature and Bedrock's
// redactedContent are bytes to their SDKs, which decode and re-encode them), of a fixed 6-byte
// magic and the parts as JSON: [family, text, signature, redacted, itemId] each, null for absent.
// The magic's base64 is TOKEN_PREFIX, so a token is known by its first characters, and no
// vendor's own state (protobuf or Fernet in base64) starts with them.
import { Buffer } from 'node:buffer';
import { PROTOCOL_NAMES, type ProtocolName, type ReasoningPart } from '../../model/types.js';

/** What every token starts with: the base64 of MAGIC (6 bytes, so its base64 is whole and comes first). */
export const TOKEN_PREFIX = 'gwReason';
const MAGIC = Buffer.from(TOKEN_PREFIX, 'base64');

type Entry = [ProtocolName, string | null, string | null, string | null, string | null];

export function isStateToken(value: string): boolean {
  return value.startsWith(TOKEN_PREFIX);
}

/**
 * `parts` as one token. `withText`: their texts ride in it too, for a carrier that has no text
 * of its own (a tool-call id, a functionCall's thoughtSignature); else the carrier's field holds
 * the one part's text (a thinking block's `thinking`) and the token only its state.
 */
export function encodeStateToken(parts: readonly ReasoningPart[], withText: boolean): string {
  const entries: Entry[] = parts.map((p) => [p.family, withText ? p.text : null, p.signature ?? null, p.redacted ?? null, p.itemId ?? null]);
  return Buffer.concat([MAGIC, Buffer.from(JSON.stringify(entries), 'utf8')]).toString('base64');
}

/**
 * The parts a token holds, or null when `value` is not a token or does not read (a caller that
 * changed it: its state cannot go anywhere, so the carrier is taken as holding none). `text`: the
 * carrier's own text, for a part whose text did not ride in the token.
 */
export function decodeStateToken(value: string, text = ''): ReasoningPart[] | null {
  if (!isStateToken(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length <= MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  let entries: unknown;
  try {
    entries = JSON.parse(bytes.subarray(MAGIC.length).toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(entries) || entries.length === 0) return null;
  const parts: ReasoningPart[] = [];
  for (const e of entries) {
    const part = partOf(e, text);
    if (part === null) return null;
    parts.push(part);
  }
  return parts;
}

function partOf(e: unknown, text: string): ReasoningPart | null {
  if (!Array.isArray(e) || e.length !== 5 || !(PROTOCOL_NAMES as readonly unknown[]).includes(e[0])) return null;
  for (let i = 1; i < 5; i++) if (e[i] !== null && typeof e[i] !== 'string') return null;
  const [family, ownText, signature, redacted, itemId] = e as Entry;
  const part: ReasoningPart = { type: 'reasoning', text: ownText ?? text, family };
  if (signature !== null) part.signature = signature;
  if (redacted !== null) part.redacted = redacted;
  if (itemId !== null) part.itemId = itemId;
  return part;
}
