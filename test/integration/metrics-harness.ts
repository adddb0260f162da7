// What the metrics integration tests share: a governed gateway (`auth.chain: [keys]`, two
// workers, a prometheus export) over a good mock and a mock that answers every request 503,
// pools that fail over, fail and trip over the bad one, and readers for /metrics and /stats
// that send a key.
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './governance/harness.js';
import { parseExposition, type ParsedFamily } from '../helpers/prometheus.js';

export const EXPORT = { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } };
/** No trip however many failures: the counts of these pools do not depend on breaker timing. */
const NEVER_TRIPS = { trip: 'consecutive', consecutive_n: 1000 };
/** Trips on the second failure in a row, then stays Open for its 15 s cooldown. */
export const TRIP_AFTER = 2;

export interface MetricsStack {
  good: MockServer;
  bad: MockServer;
  g: Governed;
  witness: SecretWitness;
  close(): Promise<void>;
}

export async function startMetricsStack(extraModels: Record<string, unknown> = {}, extraPools: Record<string, unknown> = {}): Promise<MetricsStack> {
  const good = await startMockProvider({ port: 0 });
  const bad = await startMockProvider({ port: 0, status: 503 });
  const witness = new SecretWitness();
  let g: Governed;
  try {
    g = await startGoverned(good.url, witness, {
      workers: 2,
      over: EXPORT,
      extraProviders: { 'mock-bad': { protocol: 'openai', base_url: `${bad.url}/v1`, auth: { mode: 'none' } } },
      extraModels: { 'lane-bad': { provider: 'mock-bad', upstream_model: 'up-bad' }, ...extraModels },
      extraPools: {
        // lane-bad first: SWRR starts each worker's cursor on it, so some requests fail over.
        'pool-fo': {
          members: [
            { model: 'lane-bad', weight: 1 },
            { model: 'lane-openai', weight: 1 },
          ],
          breaker: NEVER_TRIPS,
        },
        'pool-down': { members: [{ model: 'lane-bad', weight: 1 }], breaker: NEVER_TRIPS },
        'pool-trip': { members: [{ model: 'lane-bad', weight: 1 }], breaker: { trip: 'consecutive', consecutive_n: TRIP_AFTER } },
        ...extraPools,
      },
    });
  } catch (err) {
    await good.close();
    await bad.close();
    throw err;
  }
  return {
    good,
    bad,
    g,
    witness,
    async close() {
      await stopGoverned(g, witness);
      await good.close();
      await bad.close();
    },
  };
}

/** One OpenAI chat completion to `model` (a pool) with `key`; a fresh connection each time,
 * so the kernel spreads the requests over both workers. Resolves with the status. */
export async function chat(url: string, key: string, model: string, prompt = 'hi'): Promise<number> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, connection: 'close' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
  });
  await res.body.text();
  return res.statusCode;
}

export async function getText(url: string, key: string | null): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'GET', headers: key === null ? { connection: 'close' } : { authorization: `Bearer ${key}`, connection: 'close' } });
  return { status: res.statusCode, text: await res.body.text() };
}

export async function scrape(url: string, key: string): Promise<Map<string, ParsedFamily>> {
  const answer = await getText(`${url}/metrics`, key);
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}: ${answer.text}`);
  return parseExposition(answer.text);
}

/** Every sample of `family` whose labels include `match`, summed. */
export function sumOf(families: Map<string, ParsedFamily>, family: string, match: Record<string, string> = {}): number {
  let total = 0;
  for (const sample of families.get(family)?.metrics ?? []) {
    const labels = sample.labels ?? {};
    if (Object.entries(match).every(([k, v]) => labels[k] === v)) total += Number(sample.value);
  }
  return total;
}

/** The value on the exposition line that starts with `series` (name and labels exactly as
 * rendered), for histogram lines the text parser folds into buckets; undefined if absent. */
export function lineValue(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  return undefined;
}
