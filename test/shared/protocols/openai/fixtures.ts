// Vendor-shaped Chat Completions bodies and streams, as api.openai.com sends them (shapes from
// the openai SDK's ChatCompletion / ChatCompletionChunk types).

const HEAD =
  '"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_eb9dce56a8"';

function chunk(choices: string, usage = 'null'): string {
  return `data: {${HEAD},"choices":${choices},"usage":${usage}}\n\n`;
}

/** Text then two parallel tool calls, with include_usage: every chunk has "usage":null, then a usage-only chunk. */
export const TOOL_STREAM_FRAMES: string[] = [
  chunk('[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{"content":"Let me "},"logprobs":null,"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{"content":"check ☀️."},"logprobs":null,"finish_reason":null}]'),
  chunk(
    '[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]',
  ),
  chunk('[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"ci"}}]},"logprobs":null,"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\": \\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null}]'),
  chunk(
    '[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_9gWzvH1sK2","type":"function","function":{"name":"get_time","arguments":""}}]},"logprobs":null,"finish_reason":null}]',
  ),
  chunk('[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]'),
  chunk(
    '[]',
    '{"prompt_tokens":1117,"completion_tokens":46,"total_tokens":1163,"prompt_tokens_details":{"cached_tokens":1024,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}',
  ),
  'data: [DONE]\n\n',
];

export const TOOL_STREAM = TOOL_STREAM_FRAMES.join('');
/** The same stream without the usage-only chunk: what a caller that did not ask for usage sees. */
export const TOOL_STREAM_WITHOUT_USAGE = TOOL_STREAM_FRAMES.filter((f) => !f.includes('"choices":[]')).join('');

export const TOOL_STREAM_USAGE = { input: 93, output: 46, cacheRead: 1024, cacheCreation: 0 };

/** A non-stream completion with cached prompt tokens. */
export const COMPLETION = {
  id: 'chatcmpl-abc123',
  object: 'chat.completion',
  created: 1741570283,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Checking the weather.',
        refusal: null,
        annotations: [],
        tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 2006,
    completion_tokens: 300,
    total_tokens: 2306,
    prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
  service_tier: 'default',
  system_fingerprint: 'fp_6b68a8204b',
};

/** A request as the openai SDK sends it (ChatCompletionCreateParams), with fields outside the modeled subset. */
export const SDK_REQUEST = {
  model: 'gpt-pool',
  messages: [
    { role: 'developer', content: 'Be brief.' },
    { role: 'system', content: [{ type: 'text', text: 'Use metric units.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather here?' },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ', detail: 'low' } },
        { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
      ],
      name: 'alice',
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '21°C' }] },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
    },
  ],
  tool_choice: 'required',
  max_completion_tokens: 500,
  temperature: 0,
  top_p: 1,
  stop: 'STOP',
  stream: true,
  stream_options: { include_usage: true },
  n: 1,
  seed: 42,
  response_format: { type: 'text' },
  user: 'u-1',
};
