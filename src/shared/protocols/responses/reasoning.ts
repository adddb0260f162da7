// Responses reasoning items <-> the model's reasoning parts. An item is the responses family's
// own state: its id and its encrypted_content (the lane reads either back); its summary (or, from
// some hosts, its reasoning_text content) is the text. Reasoning of another family rides to a
// Responses caller as a reasoning item too, its state as a token in encrypted_content, which
// clients send back with the item (reasoning/state-token.ts).
import type { ReasoningPart } from '../../model/types.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { decodeStateToken, encodeStateToken, isStateToken } from '../reasoning/state-token.js';

/** A reasoning item's text: its reasoning_text content when it has one, else its summaries, a blank line apart. */
function reasoningItemText(item: JsonObject): string {
  const content = texts(item.content, 'reasoning_text');
  return content.length > 0 ? content.join('') : texts(item.summary, 'summary_text').join('\n\n');
}

function texts(list: unknown, type: string): string[] {
  const out: string[] = [];
  if (Array.isArray(list)) for (const p of list) if (isJsonObject(p) && p.type === type && typeof p.text === 'string') out.push(p.text);
  return out;
}

/** A reasoning item (of an answer, or of a caller's input) as parts. */
export function partsOfReasoningItem(item: JsonObject): ReasoningPart[] {
  const text = reasoningItemText(item);
  const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : undefined;
  if (encrypted !== undefined && isStateToken(encrypted)) return decodeStateToken(encrypted, text) ?? [];
  const part: ReasoningPart = { type: 'reasoning', text, family: 'responses' };
  if (encrypted !== undefined) part.signature = encrypted;
  if (typeof item.id === 'string') part.itemId = item.id;
  return [part];
}

/** The id a caller's reasoning item has: the lane's own, else one made from its place. */
export function reasoningItemId(p: ReasoningPart, outputIndex: number): string {
  return p.family === 'responses' && p.itemId !== undefined ? p.itemId : `rs_${outputIndex}`;
}

/** encrypted_content for a caller: the lane's own (null when it gave none), else the part's state as a token. */
export function carriedEncryptedContent(p: ReasoningPart): string | null {
  return p.family === 'responses' ? (p.signature ?? null) : encodeStateToken([p], false);
}

export function summaryOf(text: string): JsonObject[] {
  return text === '' ? [] : [{ type: 'summary_text', text }];
}

/** `p` as a reasoning item of an answer to a Responses caller. */
export function reasoningItemFor(p: ReasoningPart, outputIndex: number): JsonObject {
  return { id: reasoningItemId(p, outputIndex), type: 'reasoning', summary: summaryOf(p.text), encrypted_content: carriedEncryptedContent(p) };
}

/** `p` as an input item for a Responses lane; undefined for another family's part (only its family reads it: dropped). */
export function reasoningInputItem(p: ReasoningPart): JsonObject | undefined {
  if (p.family !== 'responses') return undefined;
  const item: JsonObject = { type: 'reasoning' };
  if (p.itemId !== undefined) item.id = p.itemId;
  item.summary = summaryOf(p.text);
  if (p.signature !== undefined) item.encrypted_content = p.signature;
  return item;
}
