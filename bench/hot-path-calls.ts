// Micro-benchmark (not a test): two per-request calls of scenario 1's path, each the way the
// gateway makes it now against the way it made it before, in ns per call.
//
//   node dist/bench/hot-path-calls.js [--iterations 1000000] [--rounds 7]
//
// - usage tail: a lane's learnt usage shape matched against the mock's OpenAI completion
//   (eight bodies with other counts, in turn), by TextShape.matchTail (one sticky pattern)
//   and by matchFromEnd (piece by piece from the end, what UsageShape used before);
// - uWS getHeader: the nine request headers the ingress reads, named by a string and by the
//   bytes uws-keys.ts makes once, inside the handler of one real request on loopback.
//
// Variants run interleaved, round by round; the table shows each one's median.
import { parseArgs } from 'node:util';
import { request } from 'undici';
import uWS, { type HttpRequest } from '../src/shared/uws.js';
import { cutShape, type TextShape } from '../src/shared/protocols/framing/text-shape.js';
import { lastMemberSpan, type ValueSpan } from '../src/shared/protocols/framing/json-field.js';
import { REQUEST_HEADER } from '../src/worker/uws-keys.js';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '7' },
  },
});
const ITERATIONS = Number(values.iterations);
const ROUNDS = Number(values.rounds);
if (!(ITERATIONS > 0 && ROUNDS > 0)) throw new RangeError('--iterations and --rounds must be positive');

/** The mock's OpenAI completion (src/mock/protocols/openai.ts renderJson) with these counts. */
function completion(prompt: number, output: number): string {
  return JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1_732_490_000,
    model: 'mock-openai',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Keep-alive saves a handshake per request. '.repeat(4), refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: output,
      total_tokens: prompt + output,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_mock',
  });
}

/** The usage shape a lane learns from its first body, as usage-shape.ts learns it. */
function learntShape(text: string): TextShape {
  const span: ValueSpan = { keyStart: 0, start: 0, end: 0 };
  if (!lastMemberSpan(text, 'usage', span)) throw new Error('no usage member');
  const holder: Record<string, unknown> = { usage: JSON.parse(text.slice(span.start, span.end)) as unknown };
  const shape = cutShape(text, span.keyStart, span.start, holder, 'usage');
  if (shape === null) throw new Error('no shape');
  return shape;
}

const bodies = Array.from({ length: 8 }, (_, i) => completion(57 + i * 13, 12 + i * 101));
const shape = learntShape(bodies[0]!);

function timeNs(run: () => number, calls: number): number {
  const start = process.hrtime.bigint();
  sink += run();
  return Number(process.hrtime.bigint() - start) / calls;
}
let sink = 0;

const usageVariants: [string, () => number][] = [
  [
    'matchTail (now)',
    () => {
      let s = 0;
      for (let i = 0; i < ITERATIONS; i++) s += shape.matchTail(bodies[i & 7]!);
      return s;
    },
  ],
  [
    'matchFromEnd (before)',
    () => {
      let s = 0;
      for (let i = 0; i < ITERATIONS; i++) s += shape.matchFromEnd(bodies[i & 7]!);
      return s;
    },
  ],
];

const NAMES = [
  'content-type',
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'anthropic-version',
  'anthropic-beta',
  'affinity',
  'content-length',
  'content-encoding',
];
const KEYS = [
  REQUEST_HEADER.contentType,
  REQUEST_HEADER.authorization,
  REQUEST_HEADER.xApiKey,
  REQUEST_HEADER.xGoogApiKey,
  REQUEST_HEADER.anthropicVersion,
  REQUEST_HEADER.anthropicBeta,
  REQUEST_HEADER.affinity,
  REQUEST_HEADER.contentLength,
  REQUEST_HEADER.contentEncoding,
];
const HEADER_ITERATIONS = Math.max(1, Math.floor(ITERATIONS / NAMES.length));
function headerVariants(req: HttpRequest): [string, () => number][] {
  return [
    [
      'getHeader(string) (before)',
      () => {
        let s = 0;
        for (let i = 0; i < HEADER_ITERATIONS; i++) for (let k = 0; k < NAMES.length; k++) s += req.getHeader(NAMES[k]!).length;
        return s;
      },
    ],
    [
      'getHeader(bytes) (now)',
      () => {
        let s = 0;
        for (let i = 0; i < HEADER_ITERATIONS; i++) for (let k = 0; k < KEYS.length; k++) s += req.getHeader(KEYS[k]!).length;
        return s;
      },
    ],
  ];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Rounds of every variant in turn; each variant's median ns per call. */
function measure(variants: [string, () => number][], calls: number): Map<string, number> {
  const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (const [, run] of variants) run(); // warm-up: every variant optimised before the first round
  for (let r = 0; r < ROUNDS; r++) for (const [name, run] of variants) samples.get(name)!.push(timeNs(run, calls));
  return new Map([...samples].map(([name, xs]) => [name, median(xs)]));
}

/** The header variants run inside one request's handler, where `req` is valid. */
function measureHeaders(): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const app = uWS.App();
    let result: Map<string, number> | null = null;
    app.post('/*', (res, req) => {
      result = measure(headerVariants(req), HEADER_ITERATIONS * NAMES.length);
      res.onAborted(() => {});
      res.onData((_chunk, isLast) => {
        if (isLast) res.cork(() => res.end('ok'));
      });
    });
    app.listen('127.0.0.1', 0, (socket) => {
      if (socket === false) {
        reject(new Error('cannot listen on 127.0.0.1'));
        return;
      }
      const port = uWS.us_socket_local_port(socket);
      request(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: '{"model":"default"}',
      })
        .then(async (answer) => {
          await answer.body.text();
          uWS.us_listen_socket_close(socket);
          resolve(result!);
        })
        .catch(reject);
    });
  });
}

const usage = measure(usageVariants, ITERATIONS);
const headers = await measureHeaders();

console.log(`hot-path calls: ${ROUNDS} rounds, medians (node ${process.version})\n`);
console.log('| call | variant | ns per call |');
console.log('| --- | --- | ---: |');
for (const [name, ns] of usage) console.log(`| usage tail of a ${bodies[0]!.length}-byte completion | ${name} | ${ns.toFixed(1)} |`);
for (const [name, ns] of headers) console.log(`| one of ${NAMES.length} request headers | ${name} | ${ns.toFixed(1)} |`);
if (sink === 0.5) console.log(sink); // keeps the results alive
