// Property-based fuzzing of the real ingress (issue 15): request bodies of all six protocols
// (mutated valid bodies, arbitrary JSON, truncated JSON, bytes that are not UTF-8, huge
// numbers) with odd headers, sent over HTTP to a running gateway in front of the mock.
// Properties: every request is answered; never a 500 (our own bug); an error is in the route's
// protocol shape; a 200 non-stream answer is JSON; no configured secret appears in any answer;
// the gateway is still healthy afterwards.
import fc from 'fast-check';
import { Agent, request } from 'undici';
import type { ProtocolName } from '../../src/shared/model/types.js';
import { jsonish, mutatedBody, PROTOCOLS, type FuzzProperty } from './codec-properties.js';

export interface IngressTarget {
  url: string;
  /** Every secret the gateway was configured with: none may appear in an answer. */
  secrets: readonly string[];
}

/** The pools the fuzz gateway config has, one per protocol (lanes on the mock), plus `default`. */
const FUZZ_POOLS = ['default', ...PROTOCOLS.map((p) => `pool-${p}`)];

function routeOf(protocol: ProtocolName, model: string, stream: boolean): string {
  const m = encodeURIComponent(model);
  switch (protocol) {
    case 'openai':
      return '/v1/chat/completions';
    case 'responses':
      return '/v1/responses';
    case 'anthropic':
      return '/v1/messages';
    case 'gemini':
      return stream ? `/v1beta/models/${m}:streamGenerateContent?alt=sse` : `/v1beta/models/${m}:generateContent`;
    case 'bedrock':
      return `/model/${m}/${stream ? 'converse-stream' : 'converse'}`;
    case 'ollama':
      return '/api/chat';
  }
}

/** What is wrong with an error answer for `protocol`, or null when it is in the protocol's shape. */
function errorShapeProblem(protocol: ProtocolName, headers: Record<string, string | string[] | undefined>, text: string): string | null {
  let doc: any;
  try {
    doc = JSON.parse(text);
  } catch {
    return `the error body is not JSON: ${text.slice(0, 120)}`;
  }
  switch (protocol) {
    case 'openai':
    case 'responses':
      return typeof doc?.error?.message === 'string' && typeof doc.error.type === 'string' ? null : `not an OpenAI error: ${text.slice(0, 120)}`;
    case 'anthropic':
      return doc?.type === 'error' && typeof doc.error?.type === 'string' ? null : `not an Anthropic error: ${text.slice(0, 120)}`;
    case 'gemini':
      return typeof doc?.error?.code === 'number' && typeof doc.error.status === 'string' ? null : `not a Gemini error: ${text.slice(0, 120)}`;
    case 'bedrock':
      return typeof headers['x-amzn-errortype'] === 'string' && typeof (doc?.message ?? doc?.Message) === 'string'
        ? null
        : `not a Bedrock error: ${text.slice(0, 120)}`;
    case 'ollama':
      return typeof doc?.error === 'string' ? null : `not an Ollama error: ${text.slice(0, 120)}`;
  }
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

/** Body bytes: mutated valid, arbitrary JSON, truncated, not UTF-8, huge numbers, empty. */
function bodyBytes(protocol: ProtocolName): fc.Arbitrary<Buffer> {
  const text = (v: unknown): Buffer => Buffer.from(JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { arbitrary: mutatedBody(protocol).map(text), weight: 5 },
    { arbitrary: jsonish.map(text), weight: 2 },
    {
      arbitrary: fc.tuple(mutatedBody(protocol), fc.nat()).map(([b, cut]) => {
        const t = text(b);
        return t.subarray(0, cut % (t.length + 1));
      }),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(mutatedBody(protocol), fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.nat()).map(([b, junk, at]) => {
        // Bytes spliced into the JSON text: invalid UTF-8, control bytes, a broken escape.
        const t = text(b);
        const i = at % (t.length + 1);
        return Buffer.concat([t.subarray(0, i), Buffer.from(junk.map((x) => x | 0x80)), t.subarray(i)]);
      }),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom('1e999999', '-1e999999', '123456789012345678901234567890', '0.' + '1'.repeat(500), '['.repeat(5000), '{"a":'.repeat(2000))
        .map((n) => {
          const b = Buffer.from(JSON.stringify({ model: 'pool-openai', max_tokens: 0, temperature: 0, messages: [{ role: 'user', content: 'x' }] }));
          return Buffer.from(b.toString().replace('"max_tokens":0', `"max_tokens":${n}`).replace('"temperature":0', `"temperature":${n}`));
        }),
      weight: 1,
    },
    { arbitrary: fc.constant(Buffer.alloc(0)), weight: 1 },
  );
}

const oddHeaders = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
      'application/json; charset=latin1',
    ),
    authorization: fc.oneof(
      printable,
      fc.constantFrom('Bearer ', 'Bearer x', 'Basic Zm9vOmJhcg==', 'AWS4-HMAC-SHA256 Credential=x/y, SignedHeaders=host, Signature=z'),
    ),
    'x-api-key': printable,
    'x-goog-api-key': printable,
    'anthropic-version': fc.oneof(printable, fc.constant('2023-06-01')),
    'anthropic-beta': printable,
    affinity: printable,
  },
  { requiredKeys: [] },
);

/** Statuses seen, for the run's summary (a fuzz that only ever gets 400s tests little). */
export const statusCounts = new Map<number, number>();

const agent = new Agent({ connections: 8, headersTimeout: 30_000, bodyTimeout: 30_000 });

export function ingressProperties(target: IngressTarget): FuzzProperty[] {
  return PROTOCOLS.map((protocol) => ({
    name: `ingress ${protocol}: any body and headers get an answer in the protocol's shape, no 500, no secret`,
    property: fc.asyncProperty(bodyBytes(protocol), oddHeaders, fc.constantFrom(...FUZZ_POOLS), fc.boolean(), async (body, headers, model, stream) => {
      const path = routeOf(protocol, model, stream);
      const sent: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== '') sent[k] = v;
      const res = await request(`${target.url}${path}`, { method: 'POST', body, headers: sent, dispatcher: agent });
      const text = await res.body.text();
      statusCounts.set(res.statusCode, (statusCounts.get(res.statusCode) ?? 0) + 1);
      const where = `${protocol} ${path} -> ${res.statusCode}`;
      if (res.statusCode === 500) throw new Error(`${where}: an internal error: ${text.slice(0, 200)}`);
      if (res.statusCode < 200 || res.statusCode > 599) throw new Error(`${where}: odd status`);
      const headerText = JSON.stringify(res.headers);
      for (const secret of target.secrets) {
        if (text.includes(secret) || headerText.includes(secret)) throw new Error(`${where}: the answer carries a configured secret`);
      }
      if (res.statusCode >= 400) {
        const problem = errorShapeProblem(protocol, res.headers, text);
        if (problem !== null) throw new Error(`${where}: ${problem}`);
      } else if (
        !String(res.headers['content-type'] ?? '').includes('event-stream') &&
        !String(res.headers['content-type'] ?? '').includes('ndjson') &&
        !String(res.headers['content-type'] ?? '').includes('amazon.eventstream')
      ) {
        JSON.parse(text);
      }
    }),
  }));
}

/** /healthz answers 200: the process survived the run. */
export async function stillHealthy(url: string): Promise<boolean> {
  try {
    const res = await request(`${url}/healthz`, { dispatcher: agent });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

export async function closeIngressAgent(): Promise<void> {
  await agent.close();
}
