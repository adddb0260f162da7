// Request bodies the scenarios send. They are padded to the same size (298 bytes, the size of
// the POST in the earlier measurements on this machine) so rows stay comparable across
// protocols and with those numbers.
import type { ScenarioRequest } from './scenario.js';

export const BODY_BYTES_TARGET = 298;

export interface ChatBodyOptions {
  /** The lane or pool name the gateway routes by; the mock ignores it. */
  model: string;
  stream: boolean;
  /** Stream length the mock should produce (`[mock chunks=N]` in the prompt). */
  chunks?: number;
  /** More mock settings for the directive, e.g. `chunking=event usage_on_last=true`. */
  mock?: string;
}

const SYSTEM_PROMPT = 'You are a terse assistant.';
const USER_PROMPT = 'Summarise why a proxy keeps upstream connections alive';

/** An OpenAI Chat Completions request body. */
export function openaiChatBody(opts: ChatBodyOptions): string {
  return padToTarget(
    (prompt) =>
      JSON.stringify({
        model: opts.model,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: prompt },
        ],
        max_tokens: 64,
        stream: opts.stream,
      }),
    opts.chunks,
    opts.mock,
  );
}

/** An Anthropic Messages request body. */
export function anthropicMessagesBody(opts: ChatBodyOptions): string {
  return padToTarget(
    (prompt) =>
      JSON.stringify({
        model: opts.model,
        max_tokens: 64,
        system: SYSTEM_PROMPT,
        messages: [{ role: 'user', content: prompt }],
        stream: opts.stream,
      }),
    opts.chunks,
    opts.mock,
  );
}

const FILLER = ' Keep the answer short and plain.';

// Grows the prompt with ASCII filler until the body reaches the target size (never trims).
function padToTarget(render: (prompt: string) => string, chunks: number | undefined, mock?: string): string {
  const settings = [chunks === undefined ? '' : `chunks=${chunks}`, mock ?? ''].filter((x) => x !== '').join(' ');
  const prompt = settings === '' ? USER_PROMPT : `[mock ${settings}] ${USER_PROMPT}`;
  const missing = BODY_BYTES_TARGET - Buffer.byteLength(render(prompt));
  if (missing <= 0) return render(prompt);
  return render(prompt + FILLER.repeat(Math.ceil(missing / FILLER.length)).slice(0, missing));
}

/** Scenario 1's request: OpenAI chat, non-stream, to the `default` pool. The scenarios that vary
 * the gateway around the same request (pools, hooks, metrics, keys) share it. */
export const OPENAI_NONSTREAM_REQUEST: ScenarioRequest = {
  method: 'POST',
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: openaiChatBody({ model: 'default', stream: false }),
};

/** The six wire protocols a request can come in and a lane can speak. */
export const PROTOCOLS = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'] as const;
export type BenchProtocol = (typeof PROTOCOLS)[number];

/**
 * A chat request in `protocol`'s own wire shape, padded like the others, naming `model` (a pool)
 * in the body or, for gemini and bedrock, in the path.
 */
export function protocolChatRequest(protocol: BenchProtocol, opts: ChatBodyOptions): ScenarioRequest {
  const json = { 'content-type': 'application/json' };
  const m = encodeURIComponent(opts.model);
  switch (protocol) {
    case 'openai':
      return { method: 'POST', path: '/v1/chat/completions', headers: json, body: openaiChatBody(opts) };
    case 'anthropic':
      return { method: 'POST', path: '/v1/messages', headers: { ...json, 'anthropic-version': '2023-06-01' }, body: anthropicMessagesBody(opts) };
    case 'responses':
      return {
        method: 'POST',
        path: '/v1/responses',
        headers: json,
        body: padToTarget(
          (prompt) => JSON.stringify({ model: opts.model, instructions: SYSTEM_PROMPT, input: prompt, max_output_tokens: 64, stream: opts.stream }),
          opts.chunks,
          opts.mock,
        ),
      };
    case 'gemini':
      return {
        method: 'POST',
        path: opts.stream ? `/v1beta/models/${m}:streamGenerateContent?alt=sse` : `/v1beta/models/${m}:generateContent`,
        headers: json,
        body: padToTarget(
          (prompt) =>
            JSON.stringify({
              systemInstruction: { parts: [{ text: SYSTEM_PROMPT }] },
              contents: [{ role: 'user', parts: [{ text: prompt }] }],
              generationConfig: { maxOutputTokens: 64 },
            }),
          opts.chunks,
          opts.mock,
        ),
      };
    case 'bedrock':
      return {
        method: 'POST',
        path: `/model/${m}/${opts.stream ? 'converse-stream' : 'converse'}`,
        headers: json,
        body: padToTarget(
          (prompt) =>
            JSON.stringify({
              system: [{ text: SYSTEM_PROMPT }],
              messages: [{ role: 'user', content: [{ text: prompt }] }],
              inferenceConfig: { maxTokens: 64 },
            }),
          opts.chunks,
          opts.mock,
        ),
      };
    case 'ollama':
      return {
        method: 'POST',
        path: '/api/chat',
        headers: json,
        body: padToTarget(
          (prompt) =>
            JSON.stringify({
              model: opts.model,
              messages: [
                { role: 'system', content: SYSTEM_PROMPT },
                { role: 'user', content: prompt },
              ],
              stream: opts.stream,
              options: { num_predict: 64 },
            }),
          opts.chunks,
          opts.mock,
        ),
      };
  }
}
