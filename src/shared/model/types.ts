// The internal request/response/stream-event model every codec speaks: the "modeled subset"
// of PROTOCOLS.md. Six codecs meet here, so a cross-protocol hop is decode(in) + encode(out).

export type ProtocolName = 'openai' | 'responses' | 'anthropic' | 'gemini' | 'bedrock' | 'ollama';
export const PROTOCOL_NAMES: readonly ProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];

/**
 * A prompt-cache breakpoint after a part, a tool definition or the system prompt: the prefix up
 * to and including it is cached (Anthropic `cache_control`, Bedrock `cachePoint`, OpenAI
 * `prompt_cache_breakpoint`). `ttl` when the caller named one.
 */
export interface CacheMarker {
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cache?: CacheMarker;
}
/** Either `url` or (`data` base64 + `mediaType`). */
export interface ImagePart {
  type: 'image';
  url?: string;
  data?: string;
  mediaType?: string;
  cache?: CacheMarker;
}
/** `arguments` is JSON text (the wire form of most protocols); decoders of object-shaped args stringify. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
  cache?: CacheMarker;
}
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: string;
  isError: boolean;
  name?: string;
  cache?: CacheMarker;
}
/**
 * A document or other file (a PDF, a text file...): inline (`data` base64 + `mediaType`) or by
 * `url` (http(s), gs:// or s3:// URI; `mediaType` when the caller gave it). `name` is the
 * caller's file name or title, when it gave one.
 */
export interface FilePart {
  type: 'file';
  url?: string;
  data?: string;
  mediaType?: string;
  name?: string;
  cache?: CacheMarker;
}
/**
 * A part of the caller's request that the model has no kind for (audio, video, a vendor's
 * file id...). No encoder can write it, so a cross-protocol request holding one is refused
 * (docs/compatibility.md); `what` names it as the caller's protocol does.
 */
interface UnsupportedPart {
  type: 'unsupported';
  what: string;
}
/**
 * The model's own reasoning from an answer (a thinking block, a reasoning item, a Gemini thought
 * part or thought signature, Bedrock reasoningContent, `reasoning_content`, Ollama `thinking`),
 * kept in an assistant turn so that it can go back to the kind of lane that made it. `family` is
 * that lane's protocol: the state below is opaque and only that family reads it, so encoders
 * write a part of another family nowhere upstream (protocols/reasoning/, docs/compatibility.md).
 * In an answer to a caller of another protocol it rides in a field the caller echoes.
 */
export interface ReasoningPart {
  type: 'reasoning';
  /** The reasoning text or summary as the model gave it; '' when it gave none (redacted, encrypted only, a bare signature). */
  text: string;
  family: ProtocolName;
  /** anthropic, bedrock: the signature over `text`; gemini: the thoughtSignature; responses: encrypted_content. */
  signature?: string;
  /** anthropic `redacted_thinking` data, bedrock `redactedContent` (base64); `text` is then ''. */
  redacted?: string;
  /** responses: the reasoning item's id. */
  itemId?: string;
  /** A prompt-cache marker on the block (Anthropic allows one on a thinking block of an earlier turn). */
  cache?: CacheMarker;
}
export type ContentPart = TextPart | ImagePart | FilePart | ToolCallPart | ToolResultPart | UnsupportedPart | ReasoningPart;

export type Role = 'user' | 'assistant' | 'tool';
export interface ModelMessage {
  role: Role;
  content: ContentPart[];
}

export interface ToolDef {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  cache?: CacheMarker;
}
export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export interface ModelRequest {
  /** What the caller named (a pool or lane); the encoder writes the lane's upstream model instead. */
  model: string;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolDef[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  stream: boolean;
  /** Structured output: the answer's text is JSON (of this schema). */
  responseFormat?: ResponseFormat;
  /** Reasoning settings (model/reasoning.ts maps effort levels and token budgets). */
  reasoning?: ReasoningSettings;
  /** A cache breakpoint after the system prompt (the model keeps the system prompt as one text). */
  systemCache?: CacheMarker;
  /** false: at most one tool call per answer (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
  /**
   * Settings the caller gave that would change the answer and that no cross-protocol hop can
   * honour (`n` > 1, logprobs, audio output...), as the caller named them, e.g.
   * `n=2`. A request holding any is refused rather than answered differently.
   */
  untranslatable?: string[];
}

/**
 * Structured output. `json`: any JSON object (JSON mode). `json_schema`: JSON of `schema`, a
 * JSON Schema; `strict` as the caller set it (undefined when its protocol has no such flag).
 */
export type ResponseFormat = { type: 'json' } | { type: 'json_schema'; schema: Record<string, unknown>; name?: string; description?: string; strict?: boolean };

/** OpenAI's effort levels, the widest set; `none` turns reasoning off. */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Reasoning settings as the caller gave them: an effort level, or a token budget (0 = off), or
 * neither (reasoning on at the provider's default: Anthropic adaptive, Gemini dynamic -1,
 * Ollama `think: true`). `summary`: whether and how the reasoning is shown in the answer
 * (`none`: not shown; Responses `reasoning.summary`, Gemini `includeThoughts`, Anthropic
 * `thinking.display`).
 */
export interface ReasoningSettings {
  effort?: ReasoningEffort;
  budgetTokens?: number;
  summary?: 'auto' | 'concise' | 'detailed' | 'none';
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Token counts. `input` is UNCACHED input: input + cacheRead + cacheCreation never double-counts.
 * `reasoning` is the part of `output` the model spent reasoning, where the protocol reports it
 * (OpenAI, Responses, Gemini); every vendor bills it as output, so it is never added to `output`.
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  reasoning?: number;
}
export const ZERO_USAGE: Readonly<Usage> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheCreation: 0 });

export interface ModelResponse {
  id: string;
  model: string;
  /** Text, tool_call and reasoning parts, in order. */
  content: Array<TextPart | ToolCallPart | ReasoningPart>;
  finishReason: FinishReason;
  usage: Usage;
}

/**
 * Stream events. Decoders emit, in order: one `start`; per content block `block_start`, deltas,
 * `block_stop` (every block is stopped before `finish`); `finish`; `usage` (zero or more, the
 * last one wins, each a complete running total); then `end`. Block indexes count from 0 in
 * order of appearance, text, tool and reasoning blocks alike. A reasoning block has
 * `reasoning_delta` events for its text and `reasoning_state` events for its opaque state (each
 * sets the fields it carries), which may come at any point of the block: encoders hold the state
 * and write it by the block's end.
 * `start.usage` is the input side when the upstream reported it before any content (Anthropic's
 * message_start, Gemini's first chunk); the final `usage` still carries the whole total.
 *
 * `literal` on a delta is its string as a JSON string literal, quotes included, byte for byte
 * what `JSON.stringify` gives for it: a decoder's fast path sets it when it read the string
 * straight out of the upstream's bytes, so an encoder writes it without escaping again. A
 * delta whose text is changed must drop it.
 */
export type StreamEvent =
  | { type: 'start'; id: string; model: string; usage?: Usage }
  | { type: 'block_start'; index: number; kind: 'text' }
  | { type: 'block_start'; index: number; kind: 'tool_call'; id: string; name: string }
  | { type: 'block_start'; index: number; kind: 'reasoning'; family: ProtocolName }
  | { type: 'reasoning_delta'; index: number; text: string }
  | ReasoningStateEvent
  | { type: 'text_delta'; index: number; text: string; literal?: string }
  | TextRunEvent
  | { type: 'tool_args_delta'; index: number; json: string; literal?: string }
  | { type: 'block_stop'; index: number }
  | { type: 'finish'; reason: FinishReason }
  | { type: 'usage'; usage: Usage }
  | { type: 'end' };

/** The opaque state of reasoning block `index` (ReasoningPart's fields of the same names). */
export interface ReasoningStateEvent {
  type: 'reasoning_state';
  index: number;
  signature?: string;
  redacted?: string;
  itemId?: string;
}

/**
 * Text deltas of block `index` that came back to back in one upstream chunk, as the upstream's
 * bytes: events `head "literal" tail` one after another, each literal printable ASCII without a
 * backslash. It stands for the `text_delta` events with those literals, in order. A decoder
 * emits runs only to an encoder with templates (StreamEncoder.textDeltaTemplate): see
 * protocols/fast-path/text-run.ts.
 */
export interface TextRunEvent {
  type: 'text_run';
  index: number;
  bytes: Uint8Array;
  head: Uint8Array;
  tail: Uint8Array;
  /** > 0: each event's head holds an integer of its own (a sequence number) after its first `slot` bytes. */
  slot: number;
}
