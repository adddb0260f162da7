// Property-based fuzzing of the protocol layer in process (issue 15): every codec's request
// decoder, response decoder, stream decoder and encoders, the JSON field scanner and the SSE
// framing. Properties: nothing throws but our typed GatewayError; encoded errors are JSON in
// the protocol's shape; round trips hold where the protocol allows (stream encoder -> stream
// decoder, field scanner vs JSON.parse, SSE frames split anywhere). Shared by the seeded run in
// the test suite (test/fuzz) and the long run (bench/fuzz/run.ts).
import fc from 'fast-check';
import { GatewayError, type ErrorKind, ERROR_TABLE } from '../../src/shared/errors.js';
import type { StreamEvent } from '../../src/shared/model/types.js';
import { CODECS } from '../../src/shared/protocols/index.js';
import type { ProtocolName } from '../../src/shared/model/types.js';
import { setTopLevelField, topLevelValueText } from '../../src/shared/protocols/framing/json-field.js';
import { SseReader, sseFrame } from '../../src/shared/protocols/framing/sse.js';

export interface FuzzProperty {
  name: string;
  property: fc.IRawProperty<any>;
}

export const PROTOCOLS: readonly ProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];

/** A minimal valid request body per protocol, the seed the mutations start from. */
function validBody(protocol: ProtocolName, model: string, text: string, stream: boolean): Record<string, unknown> {
  switch (protocol) {
    case 'openai':
      return { model, stream, messages: [{ role: 'user', content: text }] };
    case 'responses':
      return { model, stream, input: text };
    case 'anthropic':
      return { model, max_tokens: 64, stream, messages: [{ role: 'user', content: text }] };
    case 'gemini':
      return { contents: [{ role: 'user', parts: [{ text }] }] };
    case 'bedrock':
      return { messages: [{ role: 'user', content: [{ text }] }] };
    case 'ollama':
      return { model, stream, messages: [{ role: 'user', content: text }] };
  }
}

/** Field names the six protocols read, so mutations land where decoders look. */
const FIELDS = [
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'tools',
  'tool_choice',
  'system',
  'input',
  'instructions',
  'contents',
  'systemInstruction',
  'generationConfig',
  'inferenceConfig',
  'toolConfig',
  'options',
  'format',
  'stream_options',
  'n',
  'response_format',
  'metadata',
  'role',
  'content',
  'parts',
  'text',
  'type',
  'tool_calls',
  'function',
  'arguments',
  'image_url',
  'source',
  'thinking',
  'seed',
  'keep_alive',
  'images',
];

/** Numbers that break naive code: huge, tiny, negative zero, past 2^53, non-integers where integers go. */
const oddNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 5e-324, -0, 2 ** 53 + 1, -(2 ** 63), 2 ** 64, 0.5, -1, 4294967296, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, with odd numbers and odd strings more often than fc.jsonValue gives them. */
export const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    oddNumber,
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', 'user', 'assistant', 'system', 'tool', 'text', 'image', 'function', 'pool-openai', 'default'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A valid body of `protocol` with up to three fields replaced, at the top or one level down. */
export function mutatedBody(protocol: ProtocolName): fc.Arbitrary<unknown> {
  const edit = fc.record({ field: fc.constantFrom(...FIELDS), value: jsonish, deep: fc.boolean(), drop: fc.boolean() });
  return fc
    .record({ text: fc.string({ unit: 'binary', maxLength: 60 }), stream: fc.boolean(), edits: fc.array(edit, { maxLength: 3 }) })
    .map(({ text, stream, edits }) => {
      const body = validBody(protocol, 'pool-openai', text, stream) as Record<string, any>;
      for (const e of edits) {
        const first = Object.values(body).find((v) => Array.isArray(v) && v.length > 0) as any[] | undefined;
        const target = e.deep && first !== undefined && typeof first[0] === 'object' && first[0] !== null ? first[0] : body;
        if (e.drop) delete target[e.field];
        else target[e.field] = e.value;
      }
      return body;
    });
}

function anyBody(protocol: ProtocolName): fc.Arbitrary<unknown> {
  return fc.oneof(mutatedBody(protocol), jsonish);
}

const route = fc.record({ pathModel: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), pathStream: fc.option(fc.boolean(), { nil: undefined }) });

/** Runs `fn`; anything thrown must be our typed error. */
function onlyTypedErrors(what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return;
    throw new Error(`${what} threw ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`);
  }
}

/** Bytes split into pieces at arbitrary points. */
function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}

const encoder = new TextEncoder();
const toBytes = (x: string | Uint8Array): Uint8Array => (typeof x === 'string' ? encoder.encode(x) : x);

/** Text without lone surrogates (what a JSON text stream can carry back unchanged). */
const wellFormedText = fc.string({ unit: 'grapheme', maxLength: 30 });

const ERROR_KINDS = Object.keys(ERROR_TABLE) as ErrorKind[];

export function codecProperties(): FuzzProperty[] {
  const props: FuzzProperty[] = [];
  for (const protocol of PROTOCOLS) {
    const codec = CODECS[protocol];
    props.push({
      name: `${protocol}: request decoder throws only GatewayError`,
      property: fc.property(anyBody(protocol), route, (body, r) => {
        onlyTypedErrors('requestedModel', () => codec.requestedModel(body, r));
        onlyTypedErrors('requestedStream', () => codec.requestedStream(body, r));
        onlyTypedErrors('decodeRequest', () => {
          const req = codec.decodeRequest(body, r);
          // A request that decodes must encode for every upstream protocol or refuse with our error.
          for (const up of PROTOCOLS) onlyTypedErrors(`${protocol}->${up} encodeRequest`, () => void CODECS[up].encodeRequest(req, 'up-model'));
        });
      }),
    });
    props.push({
      name: `${protocol}: response decoder and upstream error reader throw only GatewayError`,
      property: fc.property(jsonish, fc.integer({ min: 100, max: 599 }), (body, status) => {
        onlyTypedErrors('decodeResponse', () => void codec.decodeResponse(body));
        onlyTypedErrors('upstreamErrorMessage', () => void codec.upstreamErrorMessage(status, body));
        onlyTypedErrors('usageFromResponse', () => void codec.usageFromResponse(body));
      }),
    });
    props.push({
      name: `${protocol}: stream decoder takes any bytes, split anywhere, throwing only GatewayError`,
      property: fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.array(jsonish, { maxLength: 4 }).map((events) => encoder.encode(events.map((e) => sseFrame(JSON.stringify(e) ?? 'null')).join(''))),
          fc.array(jsonish, { maxLength: 4 }).map((events) => encoder.encode(events.map((e) => `${JSON.stringify(e)}\n`).join(''))),
        ),
        fc.array(fc.nat(), { maxLength: 6 }),
        (bytes, cuts) => {
          const dec = codec.createStreamDecoder();
          onlyTypedErrors('stream decoder', () => {
            for (const piece of splitAt(bytes, cuts)) dec.push(piece);
            dec.finish();
          });
        },
      ),
    });
    props.push({
      name: `${protocol}: encodeError gives the protocol's error status and a JSON body for any message`,
      property: fc.property(
        fc.constantFrom(...ERROR_KINDS),
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.option(fc.nat(3600), { nil: undefined }),
        (kind, message, retry) => {
          const e = codec.encodeError(kind, message, retry);
          if (!Number.isInteger(e.status) || e.status < 400 || e.status > 599) throw new Error(`status ${e.status}`);
          JSON.parse(e.body);
          for (const [k, v] of Object.entries(e.headers)) if (typeof v !== 'string' || /[\r\n]/.test(v)) throw new Error(`header ${k} is not a clean string`);
        },
      ),
    });
    props.push({
      name: `${protocol}: stream encoder -> stream decoder round trip keeps the text, split anywhere`,
      property: fc.property(fc.array(wellFormedText, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), (texts, cuts) => {
        const enc = codec.createStreamEncoder();
        const events: StreamEvent[] = [
          { type: 'start', id: 'id-1', model: 'm' },
          { type: 'block_start', index: 0, kind: 'text' },
          ...texts.map((text): StreamEvent => ({ type: 'text_delta', index: 0, text })),
          { type: 'block_stop', index: 0 },
          { type: 'finish', reason: 'stop' },
          { type: 'usage', usage: { input: 3, output: 5, cacheRead: 0, cacheCreation: 0 } },
          { type: 'end' },
        ];
        const parts = events.map((e) => toBytes(enc.encode(e)));
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          all.set(p, at);
          at += p.length;
        }
        const dec = codec.createStreamDecoder();
        const got: StreamEvent[] = [];
        for (const piece of splitAt(all, cuts)) got.push(...dec.push(piece));
        got.push(...dec.finish());
        const text = got
          .filter((e): e is Extract<StreamEvent, { type: 'text_delta' }> => e.type === 'text_delta')
          .map((e) => e.text)
          .join('');
        if (text !== texts.join('')) throw new Error(`text ${JSON.stringify(text)} != ${JSON.stringify(texts.join(''))}`);
      }),
    });
  }
  props.push({
    name: 'JSON field scanner agrees with JSON.parse and rewrites one field only',
    property: fc.property(
      fc.dictionary(fc.oneof(fc.constantFrom('model', 'stream', 'a'), fc.string({ maxLength: 6 })), jsonish, { maxKeys: 6 }),
      fc.constantFrom('model', 'stream', 'a', 'missing'),
      fc.constantFrom(0, 2),
      (obj, key, indent) => {
        const raw = JSON.stringify(obj, null, indent);
        const text = topLevelValueText(raw, key);
        const parsed = JSON.parse(raw) as Record<string, unknown>;
        const has = Object.hasOwn(parsed, key);
        if (!has && text !== undefined) throw new Error(`found ${key} that is not there`);
        if (has && JSON.stringify(JSON.parse(text!)) !== JSON.stringify(parsed[key])) throw new Error(`${key}: ${text} vs ${JSON.stringify(parsed[key])}`);
        const rewritten = JSON.parse(setTopLevelField(raw, key, '"fuzz"')) as Record<string, unknown>;
        if (rewritten[key] !== 'fuzz') throw new Error('the field was not set');
        for (const k of Object.keys(parsed)) if (k !== key && JSON.stringify(rewritten[k]) !== JSON.stringify(parsed[k])) throw new Error(`${k} changed`);
      },
    ),
  });
  props.push({
    name: 'JSON field scanner never throws on arbitrary text',
    property: fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('model', 'stream'), (raw, key) => {
      try {
        topLevelValueText(raw, key);
      } catch (err) {
        if (!(err instanceof GatewayError) && !(err instanceof SyntaxError)) throw err;
      }
    }),
  });
  props.push({
    name: 'SSE frames split anywhere come back whole, in order',
    property: fc.property(
      fc.array(
        fc.record({
          data: fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/[\r\n]/.test(s)),
          event: fc.option(fc.stringMatching(/^[a-z_]{1,10}$/), { nil: undefined }),
        }),
        { maxLength: 5 },
      ),
      fc.array(fc.nat(), { maxLength: 8 }),
      (frames, cuts) => {
        const got: Array<{ event: string | undefined; data: string }> = [];
        const reader = new SseReader((event, data) => got.push({ event, data }));
        for (const piece of splitAt(encoder.encode(frames.map((f) => sseFrame(f.data, f.event)).join('')), cuts)) reader.push(piece);
        reader.end();
        // A frame whose data is empty and has no event is still an event; compare one to one.
        if (JSON.stringify(got) !== JSON.stringify(frames.map((f) => ({ event: f.event, data: f.data })))) {
          throw new Error(`${JSON.stringify(got)} != ${JSON.stringify(frames)}`);
        }
      },
    ),
  });
  return props;
}
