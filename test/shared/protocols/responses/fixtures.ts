// Vendor-shaped Responses API bodies and streams, as api.openai.com sends them (shapes from
// the openai SDK's Response / ResponseStreamEvent types), with a reasoning item (its id its
// only state: no summary, no encrypted_content).

const RESPONSE_BASE = {
  id: 'resp_68af4030592c81938ec0a5fbab4a3e9f',
  object: 'response',
  created_at: 1756343088,
  background: false,
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  model: 'gpt-5-2025-08-07',
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: 'medium', summary: null },
  store: true,
  temperature: 1.0,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [
    { type: 'function', name: 'get_weather', description: null, parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
  ],
  top_p: 1.0,
  truncation: 'disabled',
  user: null,
  metadata: {},
};

const REASONING = { id: 'rs_68af4031a1', type: 'reasoning', summary: [] };
const MESSAGE_DONE = {
  id: 'msg_68af4033b2',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Checking Paris.' }],
};
const CALL_DONE = {
  id: 'fc_68af4034c3',
  type: 'function_call',
  status: 'completed',
  arguments: '{"city":"Paris"}',
  call_id: 'call_Q8aZ3k',
  name: 'get_weather',
};
const USAGE = {
  input_tokens: 328,
  input_tokens_details: { cached_tokens: 256 },
  output_tokens: 150,
  output_tokens_details: { reasoning_tokens: 64 },
  total_tokens: 478,
};

export const RESPONSE = { ...RESPONSE_BASE, status: 'completed', output: [REASONING, MESSAGE_DONE, CALL_DONE], usage: USAGE };

const STREAM_EVENTS: Array<Record<string, unknown>> = [
  { type: 'response.created', response: { ...RESPONSE_BASE, status: 'in_progress', output: [], usage: null } },
  { type: 'response.in_progress', response: { ...RESPONSE_BASE, status: 'in_progress', output: [], usage: null } },
  { type: 'response.output_item.added', output_index: 0, item: REASONING },
  { type: 'response.output_item.done', output_index: 0, item: REASONING },
  {
    type: 'response.output_item.added',
    output_index: 1,
    item: { id: 'msg_68af4033b2', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
  },
  {
    type: 'response.content_part.added',
    item_id: 'msg_68af4033b2',
    output_index: 1,
    content_index: 0,
    part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
  },
  { type: 'response.output_text.delta', item_id: 'msg_68af4033b2', output_index: 1, content_index: 0, delta: 'Checking ', logprobs: [], obfuscation: 'k3Jd9' },
  { type: 'response.output_text.delta', item_id: 'msg_68af4033b2', output_index: 1, content_index: 0, delta: 'Paris.', logprobs: [], obfuscation: 'Qz' },
  { type: 'response.output_text.done', item_id: 'msg_68af4033b2', output_index: 1, content_index: 0, text: 'Checking Paris.', logprobs: [] },
  { type: 'response.content_part.done', item_id: 'msg_68af4033b2', output_index: 1, content_index: 0, part: MESSAGE_DONE.content[0] },
  { type: 'response.output_item.done', output_index: 1, item: MESSAGE_DONE },
  { type: 'response.output_item.added', output_index: 2, item: { ...CALL_DONE, status: 'in_progress', arguments: '' } },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_68af4034c3', output_index: 2, delta: '{"city":', obfuscation: 'x' },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_68af4034c3', output_index: 2, delta: '"Paris"}', obfuscation: 'y' },
  { type: 'response.function_call_arguments.done', item_id: 'fc_68af4034c3', output_index: 2, arguments: '{"city":"Paris"}' },
  { type: 'response.output_item.done', output_index: 2, item: CALL_DONE },
  { type: 'response.completed', response: RESPONSE },
];

export const STREAM = STREAM_EVENTS.map((e, i) => `event: ${e.type as string}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');

export const STREAM_USAGE = { input: 72, output: 150, cacheRead: 256, cacheCreation: 0, reasoning: 64 };

/** A request as the openai SDK sends it (ResponseCreateParams), with fields outside the modeled subset. */
export const SDK_REQUEST = {
  model: 'gpt-pool',
  instructions: 'Be brief.',
  input: [
    { role: 'developer', content: 'Use metric units.' },
    {
      role: 'user',
      content: [
        { type: 'input_text', text: 'Weather here?' },
        { type: 'input_image', image_url: 'https://example.com/sky.jpg', detail: 'auto' },
        { type: 'input_file', file_id: 'file-1' },
      ],
    },
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: '21°C' },
  ],
  tools: [
    { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
    { type: 'web_search' },
  ],
  tool_choice: { type: 'function', name: 'get_weather' },
  max_output_tokens: 800,
  temperature: 0.2,
  top_p: 0.5,
  stream: true,
  store: false,
  reasoning: { effort: 'low' },
  text: { format: { type: 'text' } },
};
