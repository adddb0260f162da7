// Gemini's reasoning <-> the model's reasoning parts. A thought part (`thought: true`) is
// reasoning text; a thoughtSignature is the gemini family's state, on a thought part or on the
// part it signs (a functionCall, or the text of an answer). In the model a signature on a
// functionCall is a reasoning part (no text) just before the call, and one on a text part a
// reasoning part just after the text. Writing them back, a signature-only part goes on the
// functionCall that follows it, else on the part before it, else on an empty thought part of its
// own. Reasoning of another family rides to a Gemini caller the same way, its state as a token
// in thoughtSignature (reasoning/state-token.ts), which Gemini clients keep on every part.
import type { ContentPart, ReasoningPart } from '../../model/types.js';
import type { JsonObject } from '../framing/json-field.js';
import { decodeStateToken, encodeStateToken, isStateToken } from '../reasoning/state-token.js';

/** The field's value when it is a signature (a non-empty string), else undefined. */
export function signatureOf(p: JsonObject): string | undefined {
  const s = p.thoughtSignature ?? p.thought_signature;
  return typeof s === 'string' && s.length > 0 ? s : undefined;
}

/** A thought part (`thought: true`, its text `text`) as reasoning parts. */
export function partsOfThought(text: string, signature: string | undefined): ReasoningPart[] {
  if (signature !== undefined && isStateToken(signature)) return decodeStateToken(signature, text) ?? [];
  const part: ReasoningPart = { type: 'reasoning', text, family: 'gemini' };
  if (signature !== undefined) part.signature = signature;
  return [part];
}

/** A signature on a functionCall or a text part, as the reasoning parts (no text of their own) it stands for. */
export function partsOfSignature(signature: string): ReasoningPart[] {
  if (isStateToken(signature)) return decodeStateToken(signature) ?? [];
  return [{ type: 'reasoning', text: '', family: 'gemini', signature }];
}

/** The thoughtSignature a caller's part carries for `parts`: the gemini family's own, else a token. */
function carried(parts: readonly ReasoningPart[], withText: boolean): string | undefined {
  if (parts.length === 1 && parts[0]!.family === 'gemini') return parts[0]!.signature;
  return encodeStateToken(parts, withText);
}

/**
 * The Gemini parts for one turn's content. `forCaller`: an answer to a Gemini caller (another
 * family's reasoning rides as tokens); else a Gemini lane's history (another family's reasoning
 * is dropped: only its family reads it). `write` gives a non-reasoning part's wire form.
 */
export function geminiParts(content: readonly ContentPart[], forCaller: boolean, write: (p: ContentPart) => JsonObject | undefined): JsonObject[] {
  const out: JsonObject[] = [];
  /** The last part written when it is a text part without a signature (one after a text reads back after it). */
  let signable: JsonObject | null = null;
  for (let i = 0; i < content.length; i++) {
    const p = content[i]!;
    if (p.type !== 'reasoning') {
      const wire = write(p);
      if (wire !== undefined) {
        out.push(wire);
        signable = typeof wire.text === 'string' ? wire : null;
      }
      continue;
    }
    if (!forCaller && p.family !== 'gemini') continue;
    if (p.text !== '') {
      const thought: JsonObject = { text: p.text, thought: true };
      const signature = p.family === 'gemini' ? p.signature : carried([p], false);
      if (signature !== undefined) thought.thoughtSignature = signature;
      out.push(thought);
      signable = null;
      continue;
    }
    const signature = carried([p], true);
    if (signature === undefined) continue; // no text and no state: nothing to write
    const next = content[i + 1];
    if (next !== undefined && next.type === 'tool_call') {
      const wire = write(next);
      i++;
      if (wire !== undefined) {
        wire.thoughtSignature = signature;
        out.push(wire);
      }
      signable = null;
    } else if (signable !== null) {
      signable.thoughtSignature = signature;
      signable = null;
    } else {
      out.push({ text: '', thought: true, thoughtSignature: signature });
    }
  }
  return out;
}
