// One interface over the six vendor SDKs, so that a test can send the same conversation
// through any ingress protocol and compare normalized answers. Each adapter speaks to the
// gateway only through its vendor's own npm SDK (streams too, with the SDK's streaming API).
import type { ProtocolName } from '../../../src/shared/model/types.js';

export interface ToolCallOut {
  /** Absent for protocols that carry no call id (gemini, ollama). */
  id?: string;
  name: string;
  /** Parsed JSON arguments. */
  arguments: unknown;
}

/** A conversation turn in a protocol-neutral shape; each adapter writes it in its SDK's form. */
export type NormalizedMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text?: string; toolCalls?: ToolCallOut[] }
  /** A tool result; `name` is the called tool (gemini and ollama match results by name). */
  | { role: 'tool'; toolCallId?: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export type NormalizedFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface NormalizedUsage {
  /** Uncached input tokens (protocols whose prompt count includes cached tokens are split). */
  input: number;
  output: number;
  cacheRead: number;
}

export interface NormalizedResult {
  text: string;
  toolCalls: ToolCallOut[];
  finish: NormalizedFinish;
  usage: NormalizedUsage;
  /** Number of content-bearing stream events the SDK yielded (0 for non-stream calls). */
  chunks: number;
}

export interface ChatOptions {
  /** A pool name (`pool-<protocol>`) or an unknown model for error tests. */
  model: string;
  stream: boolean;
  system?: string;
  messages: NormalizedMessage[];
  tools?: ToolSpec[];
  /** Called each time a stream yields a content-bearing event (for first-chunk timing). */
  onChunk?: () => void;
}

export interface ProtocolClient {
  readonly name: ProtocolName;
  chat(opts: ChatOptions): Promise<NormalizedResult>;
}

/**
 * Gemini and Ollama end a tool-calling turn with their plain stop reason (STOP / "stop");
 * the answer is a tool call when it carries one.
 */
export function finishWithTools(finish: NormalizedFinish, toolCalls: readonly ToolCallOut[]): NormalizedFinish {
  return finish === 'stop' && toolCalls.length > 0 ? 'tool_calls' : finish;
}

/** JSON text of tool arguments as the SDK handed them, parsed; unparsable text is kept as is. */
/**
 * The id an id-less tool result answers: the call the adapter wrote for the preceding turn
 * (`<prefix>_<turn>_0` when that call had no id of its own).
 */
export function previousCallId(messages: readonly NormalizedMessage[], at: number, prefix: string): string {
  for (let i = at - 1; i >= 0; i--) {
    const m = messages[i];
    const call = m?.role === 'assistant' ? m.toolCalls?.[0] : undefined;
    if (call !== undefined) return call.id ?? `${prefix}_${i}_0`;
  }
  return `${prefix}_missing`;
}

export function parseArguments(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What every adapter's SDK client needs: no retries (tests assert single attempts), a bound. */
export const SDK_TIMEOUT_MS = 20_000;

/** Throws when a finish value is not one the adapter knows, naming the protocol and the value. */
export function unknownFinish(protocol: ProtocolName, value: unknown): never {
  throw new Error(`${protocol} adapter: unknown finish reason ${JSON.stringify(value)}`);
}
