// A token count answer (Anthropic `count_tokens`, Gemini `countTokens`, Responses
// `input_tokens`, Bedrock `CountTokens`), and the gateway's documented estimate for a lane that
// has no counting endpoint (OpenAI Chat Completions, Ollama). The request side is a
// ModelRequest: each protocol's count request is its chat request without the generation
// settings, and is decoded by that codec.
import { Buffer } from 'node:buffer';
import type { ModelRequest } from './types.js';

export interface TokenCount {
  /** Every input token: uncached and cached alike (as each vendor's counting endpoint reports it). */
  inputTokens: number;
  /** Of those, the tokens of cached content (Gemini `cachedContentTokenCount`), when the lane said. */
  cachedTokens?: number;
  /** True when the gateway estimated it (the lane has no counting endpoint): see estimateInputTokens. */
  estimated: boolean;
}

/**
 * The response header that marks an estimated count (or estimated embedding usage): no
 * counting answer shape has a field for it. Value `estimate`; absent on a lane's own count.
 */
export const TOKEN_COUNT_HEADER = 'x-gateway-token-count';
export const TOKEN_COUNT_ESTIMATE = 'estimate';

// The estimate, one table. Tokenizers differ by model; these are the common rules of thumb the
// vendors publish, and the answer says it is an estimate.
/** UTF-8 bytes per token of text (OpenAI's "about 4 characters of English"). */
export const ESTIMATE_BYTES_PER_TOKEN = 4;
/** Per message, for the role and the turn's framing (OpenAI's cookbook counts 3 to 4). */
export const ESTIMATE_TOKENS_PER_MESSAGE = 4;
/** Per image: OpenAI's charge for a 1024x1024 image at high detail (85 + 4 tiles x 170). */
export const ESTIMATE_TOKENS_PER_IMAGE = 765;
/** Per document or other file: about a page and a half of text. */
export const ESTIMATE_TOKENS_PER_FILE = 1_000;

/** Tokens of `texts` by the byte rule (rounded up, 0 for none). */
export function estimateTextTokens(texts: Iterable<string>): number {
  let bytes = 0;
  for (const t of texts) bytes += Buffer.byteLength(t, 'utf8');
  return Math.ceil(bytes / ESTIMATE_BYTES_PER_TOKEN);
}

/**
 * The input tokens of `req` by the table above: the text of the system prompt, every text
 * part, tool call (name and arguments), tool result and tool definition (name, description,
 * JSON Schema), by bytes; plus a fixed charge per message, image and file.
 */
export function estimateInputTokens(req: ModelRequest): number {
  const texts: string[] = [];
  let fixed = 0;
  if (req.system !== undefined) texts.push(req.system);
  for (const m of req.messages) {
    fixed += ESTIMATE_TOKENS_PER_MESSAGE;
    for (const p of m.content) {
      switch (p.type) {
        case 'text':
          texts.push(p.text);
          break;
        case 'tool_call':
          texts.push(p.name, p.arguments);
          break;
        case 'tool_result':
          texts.push(p.content);
          break;
        case 'image':
          fixed += ESTIMATE_TOKENS_PER_IMAGE;
          break;
        case 'file':
          fixed += ESTIMATE_TOKENS_PER_FILE;
          break;
        case 'unsupported':
          break;
      }
    }
  }
  for (const t of req.tools ?? []) texts.push(t.name, t.description ?? '', JSON.stringify(t.parameters));
  return estimateTextTokens(texts) + fixed;
}

/** The estimate as a count answer. */
export function estimatedCount(req: ModelRequest): TokenCount {
  return { inputTokens: estimateInputTokens(req), estimated: true };
}
