// The mock's deterministic answer content, so that tests can assert exactly what came back
// (through the gateway, translated or not) without knowing how the mock renders a protocol.

/** Words the text answer cycles through; chunk i is word i (with a leading space after the first). */
const WORDS = ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog.'] as const;

/** The character used to pad text when `response_bytes` asks for a bigger body. */
const MOCK_PAD_CHAR = 'x';

/** Chunk i of a text answer (i starts at 0): one word, with a leading space after the first. */
export function mockChunk(index: number): string {
  const word = WORDS[index % WORDS.length]!;
  return index === 0 ? word : ' ' + word;
}

/**
 * The text answer split into its stream pieces. `padChars` extra characters (MOCK_PAD_CHAR) are
 * spread over the pieces, the first ones getting one more when it does not divide evenly, and
 * each piece's padding follows its word.
 */
export function mockChunks(chunks: number, padChars = 0): string[] {
  const pieces = new Array<string>(chunks);
  const padEach = Math.floor(padChars / chunks);
  const padExtra = padChars % chunks;
  for (let i = 0; i < chunks; i++) {
    const pad = padEach + (i < padExtra ? 1 : 0);
    pieces[i] = pad === 0 ? mockChunk(i) : mockChunk(i) + MOCK_PAD_CHAR.repeat(pad);
  }
  return pieces;
}

/** The whole text answer for `chunks` pieces and no padding: `mockChunks(chunks).join('')`. */
export function mockText(chunks: number): string {
  return mockChunks(chunks).join('');
}

/** The tool the mock calls when `mode=tool` is forced and the request declared none. */
export const MOCK_DEFAULT_TOOL_NAME = 'get_weather';

/** The tool call's arguments, as the JSON text every protocol carries (or parses). */
export const MOCK_TOOL_ARGUMENTS = '{"location":"Paris"}';

/** Tool call ids; gemini and ollama carry none. */
export const MOCK_TOOL_CALL_ID = 'call_mock_1';
export const MOCK_TOOL_USE_ID_ANTHROPIC = 'toolu_mock_1';
export const MOCK_TOOL_USE_ID_BEDROCK = 'tooluse_mock_1';

/**
 * The usage rule, the same underlying numbers for every protocol:
 * - `input` is the UNCACHED input tokens (the `input_tokens` setting);
 * - `cacheRead` is the cached input tokens (the `cache_read_tokens` setting);
 * - `output` is the `chunks` setting (one token per text piece; tool answers report it too).
 * Each protocol then reports them in its own convention: OpenAI chat, Responses and Gemini
 * prompt counts are input + cacheRead (they include cached tokens); Anthropic and Bedrock
 * input counts are `input` alone with cacheRead in their cache field; Ollama has no cache field
 * and reports `input` as prompt_eval_count (only evaluated tokens count there).
 */
export interface MockUsage {
  readonly input: number;
  readonly cacheRead: number;
  /** Cache-write input tokens (the `cache_creation_tokens` setting): Anthropic and Bedrock report them apart, the others as input. */
  readonly cacheCreation: number;
  /** All output tokens, the reasoning ones included (vendors count them as output). */
  readonly output: number;
  /** Of `output`, the reasoning tokens (`reasoning_tokens` when the answer reasons, else 0). */
  readonly reasoning: number;
}

export function mockUsage(inputTokens: number, cacheReadTokens: number, chunks: number, reasoningTokens = 0, cacheCreationTokens = 0): MockUsage {
  return { input: inputTokens, cacheRead: cacheReadTokens, cacheCreation: cacheCreationTokens, output: chunks + reasoningTokens, reasoning: reasoningTokens };
}

/** The timestamp every answer of this process carries (answers are cached, so it is fixed). */
export const MOCK_CREATED_AT_MS = Date.now();
export const MOCK_CREATED_AT_SEC = Math.floor(MOCK_CREATED_AT_MS / 1000);
