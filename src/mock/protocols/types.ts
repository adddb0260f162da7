// What each protocol module of the mock provides: read the few facts the mock needs from a
// request in that protocol's own shape, and write that vendor's native responses by hand.
// Deliberately independent of the gateway's codecs (src/shared/protocols), so that the mock
// is a separate witness in translation tests.
import type { MockUsage } from '../content.js';
import type { AnswerShape } from './answer-shape.js';

export type MockProtocolName = 'openai' | 'responses' | 'anthropic' | 'gemini' | 'bedrock' | 'ollama';

export const MOCK_PROTOCOL_NAMES: readonly MockProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];

/** What the URL path already says (gemini and bedrock name the model and stream in the path). */
export interface RouteFacts {
  readonly model: string | null;
  readonly stream: boolean | null;
}

/** The facts the mock reads from a request body. */
export interface RequestFacts {
  readonly model: string;
  readonly stream: boolean;
  /** OpenAI chat only: stream_options.include_usage was true. */
  readonly includeUsage: boolean;
  /** The first declared (function) tool's name, or null when none is declared. */
  readonly firstToolName: string | null;
  /** The last message is a tool result. */
  readonly lastIsToolResult: boolean;
  /** What the answer must be (structured output, a forced tool, tool schemas): answer-shape.ts. */
  readonly answer?: AnswerShape;
}

/** Everything a protocol needs to render one answer. */
export interface MockAnswer {
  readonly model: string;
  /** The tool to call, or null for a text answer. */
  readonly toolName: string | null;
  /** Text pieces (text answer: JSON for structured output) or tool-argument JSON pieces (tool answer), one per stream chunk. */
  readonly pieces: readonly string[];
  readonly usage: MockUsage;
  readonly includeUsage: boolean;
  /** OpenAI chat with includeUsage: usage on the finish chunk instead of a usage-only chunk. */
  readonly usageOnLast: boolean;
  /** The answer starts with the mock's reasoning (reasoning/content.ts), signed in the protocol's own way. */
  readonly reasoning?: boolean;
  /** Gemini streams: usageMetadata on every chunk, not only the last. */
  readonly usageEveryChunk?: boolean;
}

/** A stream in three parts so that pacing can space the pieces out. */
export interface StreamParts {
  /** Frames sent with the headers, before the first content piece. */
  readonly head: string | Uint8Array;
  /** One entry per content piece (each may hold several frames). */
  readonly pieces: ReadonlyArray<string | Uint8Array>;
  /** Frames sent right after the last piece. */
  readonly tail: string | Uint8Array;
}

export interface RenderedError {
  readonly body: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

export interface MockProtocol {
  readonly name: MockProtocolName;
  readonly jsonContentType: string;
  readonly streamContentType: string;
  /** Headers the vendor sends on every answer (request ids and the like). */
  readonly extraHeaders: ReadonlyArray<readonly [string, string]>;
  /** The request's facts, or a message saying what is wrong with it. */
  readFacts(body: Record<string, unknown>, route: RouteFacts): RequestFacts | string;
  /** The text of the last user message that has text (where a `[mock ...]` directive lives). */
  lastUserText(body: Record<string, unknown>): string;
  renderJson(answer: MockAnswer): string;
  renderStream(answer: MockAnswer): StreamParts;
  renderError(status: number, message: string): RenderedError;
}
