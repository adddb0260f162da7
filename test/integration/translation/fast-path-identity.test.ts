// The translated-stream fast paths change no byte: the whole translation matrix (every ingress
// against every lane, stream and non-stream, short and 50-chunk answers, one event per write,
// tool calls) and
// hand-written OpenAI, Ollama, Gemini and Responses streams the mock does not write (escapes,
// multi-byte characters split across writes, usage on the last content chunk or on every chunk,
// one event per write, unknown fields, vendor spacing, other member orders, event names that
// disagree with the type, a created_at that changes per line, thinking lines, CRLF and indented
// lines), and hand-written Bedrock streams (the vendor's padded frames, escapes, bytes that are
// not UTF-8, duplicate keys, frames split across writes) go to two
// gateways on the same upstreams, one with the fast paths on and one with them forced off
// (GATEWAY_TRANSLATE_FAST_PATH=off), and both answers must be the same bytes, but for the
// timestamps a gateway stamps from its own clock (ollama's created_at, responses' created_at):
// those are masked, digit for digit, before comparing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { CannedUpstream } from '../../helpers/canned-upstream.js';
import { maskClockStamps } from '../../helpers/clock-stamps.js';
import { mockConfig, startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import { minimalRequest, rawPost } from '../../helpers/clients/raw.js';
import { awsCodec, concat, eventFrame, rawEventFrame, vendorStream } from '../../shared/protocols/bedrock/fixtures.js';
import { STREAM as RESPONSES_VENDOR_STREAM } from '../../shared/protocols/responses/fixtures.js';

let mock: MockServer;
let whole: CannedUpstream;
let pieces: CannedUpstream;
let bedrockWhole: CannedUpstream;
let bedrockPieces: CannedUpstream;
let fastOn: RunningGateway;
let fastOff: RunningGateway;

before(async () => {
  mock = await startMockProvider({ port: 0 });
  whole = await CannedUpstream.start();
  pieces = await CannedUpstream.start(7); // every frame and some characters split across writes
  bedrockWhole = await CannedUpstream.start();
  bedrockPieces = await CannedUpstream.start(7);
  const { config, providers } = mockConfig(mock.url);
  const models = config.models as Record<string, unknown>;
  const pools = config.pools as Record<string, unknown>;
  for (const [name, upstream] of [
    ['whole', whole],
    ['pieces', pieces],
  ] as const) {
    providers[`canned-${name}`] = { protocol: 'openai', base_url: `http://127.0.0.1:${upstream.port}/v1`, auth: { mode: 'none' } };
    models[`lane-canned-${name}`] = { provider: `canned-${name}`, upstream_model: 'up-canned' };
    pools[`pool-canned-${name}`] = { members: [{ model: `lane-canned-${name}`, weight: 1 }] };
    // The same canned upstream as an Ollama server, for the hand-written NDJSON streams.
    providers[`canned-ollama-${name}`] = { protocol: 'ollama', base_url: `http://127.0.0.1:${upstream.port}`, auth: { mode: 'none' } };
    models[`lane-canned-ollama-${name}`] = { provider: `canned-ollama-${name}`, upstream_model: 'up-canned' };
    pools[`pool-canned-ollama-${name}`] = { members: [{ model: `lane-canned-ollama-${name}`, weight: 1 }] };
    providers[`canned-gemini-${name}`] = { protocol: 'gemini', base_url: `http://127.0.0.1:${upstream.port}/v1beta`, auth: { mode: 'none' } };
    models[`lane-canned-gemini-${name}`] = { provider: `canned-gemini-${name}`, upstream_model: 'up-canned' };
    pools[`pool-canned-gemini-${name}`] = { members: [{ model: `lane-canned-gemini-${name}`, weight: 1 }] };
    // The same canned upstream as a Responses lane, for the hand-written Responses streams.
    providers[`canned-responses-${name}`] = { protocol: 'responses', base_url: `http://127.0.0.1:${upstream.port}/v1`, auth: { mode: 'none' } };
    models[`lane-canned-responses-${name}`] = { provider: `canned-responses-${name}`, upstream_model: 'up-canned' };
    pools[`pool-canned-responses-${name}`] = { members: [{ model: `lane-canned-responses-${name}`, weight: 1 }] };
  }
  for (const [name, upstream] of [
    ['bedrock-whole', bedrockWhole],
    ['bedrock-pieces', bedrockPieces],
  ] as const) {
    providers[`canned-${name}`] = { protocol: 'bedrock', base_url: `http://127.0.0.1:${upstream.port}`, auth: { mode: 'none' } };
    models[`lane-canned-${name}`] = { provider: `canned-${name}`, upstream_model: 'up-canned' };
    pools[`pool-canned-${name}`] = { members: [{ model: `lane-canned-${name}`, weight: 1 }] };
  }
  [fastOn, fastOff] = await Promise.all([
    startGateway(writeConfig(config, providers), { workers: 1 }),
    startGateway(writeConfig(config, providers), { workers: 1, env: { GATEWAY_TRANSLATE_FAST_PATH: 'off' } }),
  ]);
});

after(async () => {
  await Promise.all([fastOn?.stop(), fastOff?.stop()]);
  await Promise.all([mock?.close(), whole?.close(), pieces?.close(), bedrockWhole?.close(), bedrockPieces?.close()]);
});

const HEADERS: Partial<Record<ProtocolName, Record<string, string>>> = { anthropic: { 'anthropic-version': '2023-06-01' } };

/** Sends the same request to both gateways; both answers must be 200 and the same bytes. */
async function sameBytes(ingress: ProtocolName, pool: string, prompt: string, stream: boolean): Promise<string> {
  const { path, body } = minimalRequest(ingress, pool, prompt, stream);
  const opts = { headers: HEADERS[ingress] ?? {} };
  const [on, off] = await Promise.all([rawPost(fastOn.url + path, body, opts), rawPost(fastOff.url + path, body, opts)]);
  assert.equal(on.status, 200, on.body.toString());
  assert.equal(off.status, 200, off.body.toString());
  const [a, b] = [masked(on.body), masked(off.body)];
  assert.ok(a === b, `fast path on and off differ:\n--- on\n${on.body.toString()}\n--- off\n${off.body.toString()}`);
  return a;
}

/** The bytes as latin1 (binary framings stay comparable) with the gateway's clock stamps masked. */
/** A Responses caller on another protocol's lane sees an id the gateway minted per response (stored state, decision 241). */
const MINTED_RESPONSE_ID = /"resp_[0-9a-f]{48}"/g;

function masked(body: Buffer): string {
  return maskClockStamps(body.toString('latin1')).replace(MINTED_RESPONSE_ID, '"resp_minted"');
}

const PROMPTS = [
  'Say something. [mock chunks=5]',
  'Say more. [mock chunks=50 cache_read_tokens=3]',
  // One HTTP chunk per event and usage on the last content chunk, as servers that flush per token write.
  'Say it per event. [mock chunks=20 chunking=event usage_on_last=true]',
];

for (const ingress of PROTOCOL_NAMES) {
  describe(`ingress ${ingress}, fast path on vs off`, { concurrency: 4 }, () => {
    for (const lane of PROTOCOL_NAMES) {
      for (const stream of [false, true]) {
        it(`${ingress} -> ${lane} ${stream ? 'stream' : 'non-stream'}: text answers`, async () => {
          for (const prompt of PROMPTS) await sameBytes(ingress, `pool-${lane}`, prompt, stream);
        });
      }
      it(`${ingress} -> ${lane} stream: tool call`, async () => {
        await sameBytes(ingress, `pool-${lane}`, 'Weather? [mock mode=tool]', true);
      });
    }
  });
}

/**
 * Hand-written upstream streams of one lane protocol, each sent whole and in 7-byte writes, into
 * every other ingress: both gateways must answer the same bytes. A stream may name a word its
 * translation must carry (so that both ways did not fail alike).
 */
function describeCanned(
  title: string,
  lane: ProtocolName,
  contentType: string,
  streams: Record<string, string | [body: string | Uint8Array, says: string]>,
): void {
  describe(`hand-written ${title} streams, fast path on vs off`, { concurrency: 1 }, () => {
    for (const [name, stream] of Object.entries(streams)) {
      const [body, says] = typeof stream === 'string' ? [stream, null] : stream;
      for (const via of ['whole', 'pieces'] as const) {
        it(`${name} (${via === 'whole' ? 'one write' : '7-byte writes'}) into every other protocol`, async () => {
          // Bedrock lanes have canned upstreams of their own; the text lanes share one pair.
          const upstream = lane === 'bedrock' ? (via === 'whole' ? bedrockWhole : bedrockPieces) : via === 'whole' ? whole : pieces;
          upstream.next = { status: 200, headers: { 'content-type': contentType }, body };
          const pool = lane === 'openai' ? `pool-canned-${via}` : `pool-canned-${lane}-${via}`;
          for (const ingress of PROTOCOL_NAMES) {
            if (ingress === lane) continue; // same protocol: passthrough, no translation
            const answer = await sameBytes(ingress, pool, 'hi', true);
            if (says !== null) assert.ok(answer.includes(says), `${ingress} answer lacks ${JSON.stringify(says)}:\n${answer}`);
          }
        });
      }
    }
  });
}

/** An OpenAI chunk as a vendor writes it. */
function chunk(choice: string, extra = ''): string {
  return `data: {"id":"chatcmpl-x","object":"chat.completion.chunk","created":1700000000,"model":"gpt-x","system_fingerprint":"fp_x"${extra},"choices":[${choice}]}\n\n`;
}
const text = (t: string, tail = ',"logprobs":null,"finish_reason":null'): string => chunk(`{"index":0,"delta":{"content":${t}}${tail}}`);
const ROLE = chunk('{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}');
const STOP = chunk('{"index":0,"delta":{},"finish_reason":"stop"}');
const USAGE = chunk('', ',"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}');
const DONE = 'data: [DONE]\n\n';

const CANNED: Record<string, string> = {
  'plain text, usage chunk': ROLE + text('"Hello"') + text('" world"') + STOP + USAGE + DONE,
  'escapes and multi-byte text':
    ROLE + text('"a \\"quote\\" \\\\ back\\nslash"') + text('" caf\\u00e9 ☀️ 世界 🎉"') + text('"\\ud83d\\ude00 \\/ \\t"') + STOP + USAGE + DONE,
  'usage on the last content chunk':
    ROLE +
    text('"one"') +
    chunk('{"index":0,"delta":{"content":" two"},"finish_reason":"stop"}', ',"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}') +
    DONE,
  'usage null after choices, unknown fields':
    ROLE +
    'data: {"id":"chatcmpl-x","object":"chat.completion.chunk","created":1700000000,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"usage":null}\n\n' +
    'data: {"id":"chatcmpl-x","object":"chat.completion.chunk","created":1700000000,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}],"obfuscation":"zz"}\n\n' +
    chunk('{"index":0,"delta":{"content":"c"},"finish_reason":null}', ',"service_tier":"default"') +
    STOP +
    DONE,
  'text after a tool call, two choices, empty deltas':
    ROLE +
    text('"before "') +
    chunk(
      '{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\\"a\\":"}}]},"finish_reason":null}',
    ) +
    chunk('{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":null}') +
    text('"after"') +
    text('""') +
    chunk('{"index":0,"delta":{"content":"x"},"finish_reason":null},{"index":1,"delta":{"content":"y"},"finish_reason":null}') +
    STOP +
    USAGE +
    DONE,
  'no [DONE], CRLF frames': (ROLE + text('"crlf"') + STOP).replace(/\n/g, '\r\n'),
};

describeCanned('OpenAI', 'openai', 'text/event-stream', CANNED);

/** An Ollama line as a server writes it; created_at changes per line, as Ollama's does. */
let stamp = 0;
function line(message: string, rest = ',"done":false'): string {
  stamp++;
  return `{"model":"llama3.2","created_at":"2025-05-01T10:00:${String(stamp % 60).padStart(2, '0')}.${123456 + stamp}Z","message":${message}${rest}}\n`;
}
const say = (t: string): string => line(`{"role":"assistant","content":${t}}`);
const OLLAMA_DONE = line('{"role":"assistant","content":""}', ',"done_reason":"stop","done":true,"total_duration":1000,"prompt_eval_count":9,"eval_count":4');

const OLLAMA_CANNED: Record<string, string> = {
  'plain text': say('"Hello"') + say('" world"') + OLLAMA_DONE,
  'escapes and multi-byte text':
    say('"a \\"quote\\" \\\\ back\\nslash"') + say('" caf\\u00e9 ☀️ 世界 🎉"') + say('"\\u003cb\\u003e \\ud83d\\ude00 \\/ \\t"') + say('"ü"') + OLLAMA_DONE,
  'thinking, empty and indented lines, text after a tool call':
    line('{"role":"assistant","content":"","thinking":"Hmm."}') +
    say('"before "') +
    say('""') +
    line('{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]}') +
    ` ${say('"after"')}` +
    say('"x"').replace(',"done":false', ',"done":false,"extra":1') +
    OLLAMA_DONE,
  'CRLF lines, no final line feed': (say('"crlf"') + say('" two"') + OLLAMA_DONE).replace(/\n/g, '\r\n').slice(0, -2),
};

describeCanned('Ollama', 'ollama', 'application/x-ndjson', OLLAMA_CANNED);

/** A Gemini chunk as generativelanguage.googleapis.com writes it: a space after each colon, CRLF after the event. */
function geminiChunk(part: string, usage = '', candidateRest = ',"index": 0'): string {
  return `data: {"candidates": [{"content": {"parts": [${part}],"role": "model"}${candidateRest}}]${usage},"modelVersion": "gemini-2.5-flash","responseId": "Y2xhdWRl"}\r\n\r\n`;
}
const geminiUsage = (n: number): string =>
  `,"usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": ${n},"totalTokenCount": ${9 + n},"promptTokensDetails": [{"modality": "TEXT","tokenCount": 9}]}`;
const geminiText = (t: string, n: number): string => geminiChunk(`{"text": ${t}}`, geminiUsage(n));
const GEMINI_STOP = geminiChunk('{"text": ""}', geminiUsage(20), ',"finishReason": "STOP","index": 0');

const CANNED_GEMINI: Record<string, string> = {
  'usage on every chunk': geminiText('"Hello"', 1) + geminiText('" world"', 2) + geminiText('"!"', 2) + GEMINI_STOP,
  'escapes and multi-byte text':
    geminiText('"a \\"quote\\" \\\\ back\\nslash"', 1) + geminiText('" caf\\u00e9 ☀️ 世界 🎉"', 2) + geminiText('"\\ud83d\\ude00 \\/ \\t"', 3) + GEMINI_STOP,
  'thoughts, empty text, usage only on some chunks, no usage at the end':
    geminiChunk('{"text": "thinking","thought": true}', geminiUsage(0)) +
    geminiText('"one"', 1) +
    geminiChunk('{"text": ""}') +
    geminiChunk('{"text": " two"}') +
    geminiText('" three"', 4) +
    geminiChunk('{"text": " four"}') +
    geminiChunk('{"text": ""}', '', ',"finishReason": "MAX_TOKENS"'),
  'Vertex AI shape: role first, createTime, usage without counts':
    [' Hi', ' there', '.']
      .map(
        (t) =>
          `data: {"candidates": [{"content": {"role": "model","parts": [{"text": "${t}"}]}}],"usageMetadata": {"trafficType": "ON_DEMAND"},"modelVersion": "gemini-2.5-flash","createTime": "2026-03-10T14:54:45.066123Z","responseId": "tTCw"}\r\n\r\n`,
      )
      .join('') +
    'data: {"candidates": [{"content": {"role": "model","parts": [{"text": "","thoughtSignature": "AY89"}]},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 1,"candidatesTokenCount": 9,"totalTokenCount": 10,"trafficType": "ON_DEMAND"},"modelVersion": "gemini-2.5-flash","createTime": "2026-03-10T14:54:45.066123Z","responseId": "tTCw"}\r\n\r\n',
  'text around a function call, two parts, compact LF frames': (
    geminiText('"before "', 1) +
    geminiChunk('{"functionCall": {"name": "get_weather","args": {"city": "Paris"}}}', geminiUsage(5)) +
    geminiText('"after"', 6) +
    geminiChunk('{"text": "x"},{"text": "y"}', geminiUsage(7)) +
    GEMINI_STOP
  )
    .replace(/": /g, '":')
    .replace(/\r\n/g, '\n'),
};

describeCanned('Gemini', 'gemini', 'text/event-stream', CANNED_GEMINI);

/** How a Bedrock stream ends: the text block closed, the stop reason, the usage. */
const BEDROCK_END = [
  eventFrame('contentBlockStop', { contentBlockIndex: 0, p: 'abcd' }),
  eventFrame('messageStop', { p: 'abcdefgh', stopReason: 'end_turn' }),
  eventFrame('metadata', { metrics: { latencyMs: 12 }, p: 'ab', usage: { inputTokens: 7, outputTokens: 5, totalTokens: 12 } }),
];
const BEDROCK_START = eventFrame('messageStart', { p: 'abcdefghijklmn', role: 'assistant' });
const str = (value: string) => ({ type: 'string' as const, value });

/** Each stream, and a word its translation must carry (so that both ways did not fail alike). */
const CANNED_BEDROCK: Record<string, [frames: Uint8Array, says: string]> = {
  'the vendor frames: reasoning, text, tool call': [vendorStream, 'Paris'],
  'escapes, multi-byte text, both member orders': [
    concat([
      BEDROCK_START,
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"a \\"quote\\" \\\\ back\\nslash"},"p":"abcdef"}'),
      rawEventFrame('contentBlockDelta', '{"delta":{"text":" café ☀️ 世界 🎉"},"contentBlockIndex":0}'),
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":" \\ud83d\\ude00 \\/ \\t \\u00e9"}}'),
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":""},"p":""}'),
      ...BEDROCK_END,
    ]),
    'slash',
  ],
  'duplicate keys, spaces, headers in another order': [
    concat([
      BEDROCK_START,
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"first"},"delta":{"text":"last wins"}}'),
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex": 0, "delta": {"text": " spaced"}}'),
      awsCodec.encode({
        headers: { ':message-type': str('event'), ':event-type': str('contentBlockDelta'), ':content-type': str('application/json') },
        body: Buffer.from('{"contentBlockIndex":0,"delta":{"text":" reordered"}}'),
      }),
      rawEventFrame('contentBlockDelta', '{"contentBlockIndex":1,"delta":{"text":" unopened block"},"p":"a"}'),
      ...BEDROCK_END,
    ]),
    'last wins',
  ],
  'bytes that are not UTF-8, a byte-order mark': [
    concat([
      BEDROCK_START,
      rawEventFrame(
        'contentBlockDelta',
        Buffer.concat([
          Buffer.from('{"contentBlockIndex":0,"delta":{"text":"bad '),
          Buffer.from([0xff, 0xc3, 0x20, 0xe2, 0x98]),
          Buffer.from(' end"},"p":"abc"}'),
        ]),
      ),
      rawEventFrame(
        'contentBlockDelta',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"contentBlockIndex":0,"delta":{"text":" after a BOM"}}')]),
      ),
      ...BEDROCK_END,
    ]),
    'after a BOM',
  ],
};

describeCanned('Bedrock', 'bedrock', 'application/vnd.amazon.eventstream', CANNED_BEDROCK);

/** A Responses event; `name` when the SSE event name is not the type (null: no event line). */
function rsp(data: string, name?: string | null): string {
  const type = /^\{"type":"([^"]+)"/.exec(data)?.[1] ?? 'x';
  return `${name === null ? '' : `event: ${name ?? type}\n`}data: ${data}\n\n`;
}
const R_HEAD =
  rsp(
    '{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-x","output":[],"usage":null}}',
  ) +
  rsp(
    '{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
  ) +
  rsp(
    '{"type":"response.content_part.added","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
  );
const rText = (seq: number, lit: string, rest = ',"logprobs":[],"obfuscation":"abc"'): string =>
  rsp(`{"type":"response.output_text.delta","sequence_number":${seq},"item_id":"msg_1","output_index":0,"content_index":0,"delta":${lit}${rest}}`);
const R_TAIL =
  rsp(
    '{"type":"response.output_item.done","sequence_number":90,"output_index":0,"item":{"id":"msg_1","type":"message","status":"completed","content":[],"role":"assistant"}}',
  ) +
  rsp(
    '{"type":"response.completed","sequence_number":91,"response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-x","output":[],"usage":{"input_tokens":9,"input_tokens_details":{"cached_tokens":0},"output_tokens":4,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":13}}}',
  );
const R_CALL =
  rsp(
    '{"type":"response.output_item.added","sequence_number":40,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"f"}}',
  ) +
  rsp('{"type":"response.function_call_arguments.delta","sequence_number":41,"item_id":"fc_1","output_index":1,"delta":"{\\"a\\":","obfuscation":"x"}') +
  rsp('{"type":"response.function_call_arguments.delta","sequence_number":42,"item_id":"fc_1","output_index":1,"delta":"1}","obfuscation":"yz"}') +
  rsp('{"type":"response.function_call_arguments.delta","sequence_number":43,"item_id":"fc_9","output_index":9,"delta":"lost","obfuscation":"x"}') +
  rsp(
    '{"type":"response.output_item.done","sequence_number":44,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\\"a\\":1}","call_id":"call_1","name":"f"}}',
  );

// response.in_progress as vendors send it (created's response again), and ones that differ from it.
const R_CREATED_TAIL = ',"response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-x","output":[],"usage":null}}';
const R_IN_PROGRESS =
  rsp(`{"type":"response.in_progress","sequence_number":1${R_CREATED_TAIL}`) +
  rsp(`{"type":"response.in_progress","sequence_number":17${R_CREATED_TAIL.replace('"gpt-x"', '"gpt-y"')}`) +
  rsp(`{"type":"response.in_progress","sequence_number":18,"extra":true${R_CREATED_TAIL}`) +
  rsp(`{"type":"response.in_progress","sequence_number":019${R_CREATED_TAIL}`.replace('019', '19 '));

// The done events that close a text part (recognised without parsing when they repeat the
// deltas' text in OpenAI's shape), and ones that differ from that shape in each way.
const rDone = (seq: number, text: string, o = 0, c = 0): string =>
  rsp(`{"type":"response.output_text.done","sequence_number":${seq},"item_id":"msg_1","output_index":${o},"content_index":${c},"text":${text},"logprobs":[]}`) +
  rsp(
    `{"type":"response.content_part.done","sequence_number":${seq + 1},"item_id":"msg_1","output_index":${o},"content_index":${c},"part":{"type":"output_text","annotations":[],"logprobs":[],"text":${text}}}`,
  ) +
  rsp(
    `{"type":"response.output_item.done","sequence_number":${seq + 2},"output_index":${o},"item":{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":${text}}],"role":"assistant"}}`,
  );
const R_COMPLETED = rsp(
  '{"type":"response.completed","sequence_number":99,"response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-x","output":[],"usage":{"input_tokens":9,"output_tokens":4,"total_tokens":13}}}',
);

const RESPONSES_CANNED: Record<string, string> = {
  'a vendor stream: reasoning item, text, tool call': RESPONSES_VENDOR_STREAM,
  'escapes and multi-byte text':
    R_HEAD +
    rText(3, '"Hello"') +
    rText(4, '" a \\"quote\\" \\\\ back\\nslash"') +
    rText(5, '" café ☀️ 世界 🎉"') +
    rText(6, '"\\ud83d"') +
    rText(7, '"\\ude00 \\/ \\t\\u00e9"') +
    rText(8, '" end"', ',"logprobs":[]') +
    R_TAIL,
  'other orders, names and members; a second part; empty and refusal deltas':
    R_HEAD +
    rText(3, '"one"') +
    rsp('{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":" two","sequence_number":4}') +
    rsp('{"delta":" three","type":"response.output_text.delta","content_index":0,"output_index":0}', 'delta') +
    rsp('{"type":"response.output_text.delta","sequence_number":6,"item_id":"msg_1","output_index":0,"content_index":0,"delta":" four","logprobs":[]}', null) +
    rsp(
      '{"type":"response.output_text.done","sequence_number":7,"item_id":"msg_1","output_index":0,"content_index":0,"delta":" not text","text":"x"}',
      'response.output_text.delta',
    ) +
    rsp('{"type":"response.output_text.delta","sequence_number":8,"item_id":"msg_1","output_index":0,"content_index":0,"delta":" five","delta":" six"}') +
    rsp('{"type": "response.output_text.delta", "sequence_number": 9, "output_index": 0, "content_index": 0, "delta": " seven"}') +
    rText(10, '""') +
    rText(11, '" eight"', ',"logprobs":[],"extra":{"a":1}') +
    rsp('{"type":"response.output_text.delta","sequence_number":12,"item_id":"msg_1","output_index":0,"content_index":1,"delta":" part two","logprobs":[]}') +
    rText(13, '" back to one"') +
    rsp('{"type":"response.refusal.delta","sequence_number":14,"item_id":"msg_1","output_index":0,"content_index":2,"delta":" no"}') +
    rsp(
      '{"type":"response.content_part.done","sequence_number":15,"item_id":"msg_1","output_index":0,"content_index":1,"part":{"type":"output_text","text":""}}',
    ) +
    rText(16, '" after done"') +
    R_TAIL,
  'in_progress repeating created, and in_progress events that differ from it': R_HEAD + R_IN_PROGRESS + rText(3, '"after"') + R_TAIL,
  'done events repeating the text': R_HEAD + rText(3, '"Hello"') + rText(4, '" world"', ',"logprobs":[]') + rDone(5, '"Hello world"') + R_COMPLETED,
  'done events with another text, another part, other members':
    R_HEAD +
    rText(3, '"Hello"') +
    rDone(4, '"Hello there"') +
    rText(7, '"Hi"') +
    rsp('{"type":"response.output_text.done","sequence_number":8,"item_id":"msg_1","output_index":0,"content_index":0,"text":"Hi","logprobs":[],"x":1}') +
    rsp(
      '{"type":"response.content_part.done","sequence_number":9,"item_id":"msg_1","output_index":0,"content_index":1,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"}}',
    ) +
    rsp(
      '{"type":"response.content_part.done","sequence_number":10,"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi" }}',
    ) +
    rsp(
      '{"type":"response.output_item.done","sequence_number":11,"output_index":0,"item":{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"},{"type":"refusal","refusal":"no"}],"role":"assistant"}}',
    ) +
    rDone(12, '"Hi"', 1, 0) +
    rDone(15, '"Hi"') +
    R_COMPLETED,
  'done events after escaped deltas, and a second part':
    R_HEAD +
    rText(3, '"a \\"q\\""') +
    rDone(4, '"a \\"q\\""') +
    rsp('{"type":"response.output_text.delta","sequence_number":7,"item_id":"msg_1","output_index":0,"content_index":1,"delta":"two","logprobs":[]}') +
    rDone(8, '"two"', 0, 1) +
    R_COMPLETED,
  'a tool call after text, a delta for an unknown call': R_HEAD + rText(3, '"Let me check."') + R_CALL + R_TAIL,
  'one event split over data lines, CRLF frames':
    R_HEAD +
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":3,\ndata: "output_index":0,"content_index":0,"delta":"split"}\n\n' +
    rText(4, '" whole"') +
    (rText(5, '" crlf"') + R_TAIL).replace(/\n/g, '\r\n'),
};

describeCanned('Responses', 'responses', 'text/event-stream', RESPONSES_CANNED);
