// Vendor-shaped Ollama /api/chat bodies and streams, as an Ollama server sends them (shapes
// from the ollama SDK's ChatRequest / ChatResponse types).

const line = (o: unknown): string => `${JSON.stringify(o)}\n`;

/** Text, then a tool call line (Ollama sends each call whole, arguments as an object), then the done line. */
export const STREAM = [
  line({ model: 'llama3.2', created_at: '2025-05-01T10:00:00.000000Z', message: { role: 'assistant', content: 'Let me ' }, done: false }),
  line({ model: 'llama3.2', created_at: '2025-05-01T10:00:00.100000Z', message: { role: 'assistant', content: 'check ☀️.' }, done: false }),
  line({
    model: 'llama3.2',
    created_at: '2025-05-01T10:00:00.200000Z',
    message: {
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris', days: 2 } } }, { function: { name: 'get_time', arguments: {} } }],
    },
    done: false,
  }),
  line({
    model: 'llama3.2',
    created_at: '2025-05-01T10:00:00.300000Z',
    message: { role: 'assistant', content: '' },
    done_reason: 'stop',
    done: true,
    total_duration: 4883583458,
    load_duration: 1334875,
    prompt_eval_count: 26,
    prompt_eval_duration: 342546000,
    eval_count: 282,
    eval_duration: 4535599000,
  }),
].join('');

export const STREAM_USAGE = { input: 26, output: 282, cacheRead: 0, cacheCreation: 0 };

export const RESPONSE = {
  model: 'llama3.2',
  created_at: '2025-05-01T10:00:00.000Z',
  message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
  done_reason: 'stop',
  done: true,
  total_duration: 5191566416,
  load_duration: 2154458,
  prompt_eval_count: 26,
  prompt_eval_duration: 383809000,
  eval_count: 298,
  eval_duration: 4799921000,
};

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A request as the ollama SDK sends it (ChatRequest), tool results keyed by tool_name only. */
export const SDK_REQUEST = {
  model: 'llama-pool',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is this, and the weather?', images: [PNG] },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }, { function: { name: 'get_time', arguments: { tz: 'CET' } } }],
    },
    { role: 'tool', content: '14:00', tool_name: 'get_time' },
    { role: 'tool', content: '21°C', tool_name: 'get_weather' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } },
    },
  ],
  format: 'json',
  keep_alive: '5m',
  think: false,
  options: { num_predict: 128, temperature: 0.7, top_p: 0.9, stop: ['</s>'], seed: 42, num_ctx: 4096 },
};

export { PNG };
