// Builders of the protocol-neutral request's turns and parts (ModelRequest messages), for the
// codec tests' fixtures and for the values they expect decoded: `user(text('hi'), image({ url }))`
// is { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', url }] }.
import type {
  ContentPart,
  ImagePart,
  ModelMessage,
  ProtocolName,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../src/shared/model/types.js';

export const text = (text: string): TextPart => ({ type: 'text', text });

/** An image by `url`, or inline (`data` and `mediaType`). */
export const image = (source: Omit<ImagePart, 'type'>): ImagePart => ({ type: 'image', ...source });

/** A tool call; `args` is the JSON text of its arguments. */
export const toolCall = (id: string, name: string, args: string): ToolCallPart => ({ type: 'tool_call', id, name, arguments: args });

/** Reasoning of a lane of `family`; `more` is its signature, redacted data or item id. */
export const reasoning = (family: ProtocolName, text: string, more: Partial<Omit<ReasoningPart, 'type' | 'text' | 'family'>> = {}): ReasoningPart => ({
  type: 'reasoning',
  text,
  family,
  ...more,
});

export const user = (...content: ContentPart[]): ModelMessage => ({ role: 'user', content });
export const assistant = (...content: ContentPart[]): ModelMessage => ({ role: 'assistant', content });

/** A tool turn with the result of the call `toolCallId` (`more`: its isError, the tool's name, a cache marker). */
export const toolResult = (toolCallId: string, content: string, more: Partial<Omit<ToolResultPart, 'type' | 'toolCallId' | 'content'>> = {}): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool_result', toolCallId, content, isError: false, ...more }],
});
