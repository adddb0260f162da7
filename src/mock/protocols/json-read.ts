// Reading untyped request JSON without trusting its shape: every accessor answers a safe
// default instead of throwing when a field is missing or of the wrong type.

export type JsonObject = Record<string, unknown>;

export function objectAt(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function arrayAt(value: unknown): readonly unknown[] | null {
  return Array.isArray(value) ? value : null;
}

export function stringAt(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function lastOf(list: readonly unknown[] | null): JsonObject | null {
  return list !== null && list.length > 0 ? objectAt(list[list.length - 1]) : null;
}

/** Joins the `field` strings of the parts (objects) of a content array, optionally of one type. */
function joinPartText(parts: readonly unknown[], field: string, type: string | null): string {
  let text = '';
  for (const part of parts) {
    const obj = objectAt(part);
    if (obj === null || (type !== null && obj.type !== type)) continue;
    const value = obj[field];
    if (typeof value === 'string') text += text === '' ? value : '\n' + value;
  }
  return text;
}

/** Text of a content that is either a string or an array of parts carrying `field`. */
export function contentText(content: unknown, field: string, type: string | null): string {
  if (typeof content === 'string') return content;
  const parts = arrayAt(content);
  return parts === null ? '' : joinPartText(parts, field, type);
}

/** The text of the last message with the given role whose text is non-empty. */
export function lastRoleText(messages: readonly unknown[] | null, isUser: (message: JsonObject) => boolean, textOf: (message: JsonObject) => string): string {
  if (messages === null) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = objectAt(messages[i]);
    if (message === null || !isUser(message)) continue;
    const text = textOf(message);
    if (text !== '') return text;
  }
  return '';
}

export function hasPartWith(content: unknown, predicate: (part: JsonObject) => boolean): boolean {
  const parts = arrayAt(content);
  if (parts === null) return false;
  for (const part of parts) {
    const obj = objectAt(part);
    if (obj !== null && predicate(obj)) return true;
  }
  return false;
}

/**
 * The text of the last `role: "user"` message that has text, its content a string or parts
 * (`text` fields, of parts of `partType`, or of any part with null): OpenAI chat, Responses,
 * Anthropic and Converse messages.
 */
export function lastUserMessageText(messages: unknown, partType: string | null): string {
  return lastRoleText(
    arrayAt(messages),
    (m) => m.role === 'user',
    (m) => contentText(m.content, 'text', partType),
  );
}

/** The first declared tool's name where each tool wraps it in `wrapper` (OpenAI chat and Ollama `function`, Converse `toolSpec`). */
export function firstWrappedToolName(tools: readonly unknown[] | null, wrapper: string): string | null {
  if (tools === null) return null;
  for (const tool of tools) {
    const name = stringAt(objectAt(objectAt(tool)?.[wrapper])?.name);
    if (name !== null) return name;
  }
  return null;
}
