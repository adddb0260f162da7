// The soak's traffic beside wrk's steady governed non-stream load: streams in two protocols,
// injected faults (the mock's directives: resets, hangs cut short, 5xx), and the key life
// cycle (mint, use, revoke, refused), and config applies. Each loop runs back to back until
// stopped. Answers to injected faults are counted as injected, never as errors; so are answers
// cut in the few seconds after the soak recycles a worker (a recycle ends the worker as a crash
// would, and its connections with it). Anything else that is not the expected answer is an
// unexpected error and fails the verdict.
import { request } from 'undici';
import { anthropicMessagesBody, openaiChatBody } from '../request-bodies.js';

export interface TrafficCounts {
  requests: number;
  injected: number;
  unexpected: number;
  /** The first few unexpected answers, for the report. */
  examples: string[];
  minted: number;
  revoked: number;
  applied: number;
  /** Worker recycles (SIGUSR2) and the answers cut while one was under way. */
  recycles: number;
  cutByRecycle: number;
  /** performance.now() until which a failed answer is put on the recycle. */
  recyclingUntilMs: number;
}

export function emptyCounts(): TrafficCounts {
  return { requests: 0, injected: 0, unexpected: 0, examples: [], minted: 0, revoked: 0, applied: 0, recycles: 0, cutByRecycle: 0, recyclingUntilMs: 0 };
}

/** How long after a recycle signal failures are put on it: the worker's exit and a fresh boot. */
export const RECYCLE_WINDOW_MS = 5_000;

/** Recycle one worker of the gateway the way an operator does (SIGUSR2, src/main/workers.ts). */
export function recycleWorker(pid: number, counts: TrafficCounts): void {
  counts.recyclingUntilMs = performance.now() + RECYCLE_WINDOW_MS;
  process.kill(pid, 'SIGUSR2');
  counts.recycles++;
}

function unexpected(counts: TrafficCounts, what: string): void {
  if (performance.now() < counts.recyclingUntilMs) {
    counts.cutByRecycle++;
    return;
  }
  counts.unexpected++;
  if (counts.examples.length < 5) counts.examples.push(what);
}

/** A POST whose body is read whole; a transport error is `status: 0`. */
async function post(url: string, body: string, headers: Record<string, string>, timeoutMs = 15_000): Promise<{ status: number; text: string }> {
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return { status: res.statusCode, text: await res.body.text() };
  } catch (err) {
    return { status: 0, text: (err as Error).message };
  }
}

const STREAM_OPENAI = openaiChatBody({ model: 'default', stream: true, chunks: 50 });
const STREAM_ANTHROPIC = anthropicMessagesBody({ model: 'default', stream: true, chunks: 20 });

/** Streams, OpenAI and Anthropic (translated to the OpenAI lane), alternating. */
export async function streamLoop(url: string, bearer: string, stop: AbortSignal, counts: TrafficCounts): Promise<void> {
  for (let i = 0; !stop.aborted; i++) {
    const openai = i % 2 === 0;
    const r = openai
      ? await post(`${url}/v1/chat/completions`, STREAM_OPENAI, { authorization: `Bearer ${bearer}` })
      : await post(`${url}/v1/messages`, STREAM_ANTHROPIC, { 'x-api-key': bearer, 'anthropic-version': '2023-06-01' });
    counts.requests++;
    const ok = r.status === 200 && (openai ? r.text.includes('[DONE]') : r.text.includes('message_stop'));
    if (!ok) unexpected(counts, `${openai ? 'openai' : 'anthropic'} stream: ${r.status} ${r.text.slice(0, 120)}`);
  }
}

/** Mock directives that make the upstream fail; the gateway must answer each (any status) and live on. */
const FAULTS = [
  '[mock status=500]',
  '[mock fault=reset_before]',
  '[mock fault=reset_during]',
  '[mock status=429 retry_after=1]',
  '[mock fault=context_length]',
];

export async function faultLoop(url: string, bearer: string, stop: AbortSignal, counts: TrafficCounts): Promise<void> {
  for (let i = 0; !stop.aborted; i++) {
    const directive = FAULTS[i % FAULTS.length]!;
    const stream = i % 3 === 0;
    const body = JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: `${directive} fail please` }] });
    const r = await post(`${url}/v1/chat/completions`, body, { authorization: `Bearer ${bearer}` });
    counts.requests++;
    // A fault is answered with an error status, or (mid-stream) a cut stream; a transport error
    // on a stream cut mid-way is the injected fault too. A 200 with a whole answer is not.
    if (r.status >= 400 || r.status === 0 || (stream && !r.text.includes('[DONE]'))) counts.injected++;
    else if (directive.includes('reset_during') && stream) counts.injected++;
    else unexpected(counts, `fault ${directive}${stream ? ' stream' : ''}: ${r.status} ${r.text.slice(0, 120)}`);
    await pause(50, stop);
  }
}

/** Mint a key, use it (200), revoke it, use it again (401); a pause between rounds. */
export async function keyLoop(url: string, adminUrl: string, stop: AbortSignal, counts: TrafficCounts): Promise<void> {
  const body = openaiChatBody({ model: 'default', stream: false });
  for (let i = 0; !stop.aborted; i++) {
    const minted = await post(`${adminUrl}/keys`, JSON.stringify({ name: `soak-${i}`, allowed_pools: ['*'] }), {});
    if (minted.status !== 201) {
      unexpected(counts, `mint: ${minted.status} ${minted.text.slice(0, 120)}`);
      await pause(1000, stop);
      continue;
    }
    counts.minted++;
    const key = JSON.parse(minted.text) as { id: string; secret: string };
    const used = await post(`${url}/v1/chat/completions`, body, { authorization: `Bearer ${key.secret}` });
    counts.requests++;
    if (used.status !== 200) unexpected(counts, `fresh key: ${used.status} ${used.text.slice(0, 120)}`);
    try {
      const res = await request(`${adminUrl}/keys/${key.id}`, { method: 'DELETE' });
      await res.body.dump();
      if (res.statusCode === 200) counts.revoked++;
      else unexpected(counts, `revoke: ${res.statusCode}`);
    } catch (err) {
      unexpected(counts, `revoke: ${(err as Error).message}`);
    }
    const refused = await post(`${url}/v1/chat/completions`, body, { authorization: `Bearer ${key.secret}` });
    counts.requests++;
    if (refused.status !== 401) unexpected(counts, `revoked key: ${refused.status} (expected 401)`);
    await pause(200, stop);
  }
}

/**
 * A config apply every `everyMs`: the deployment config with the pool's weights changed, so
 * every apply compiles, pushes a new snapshot to each worker and swaps runtimes under load.
 */
export async function applyLoop(adminUrl: string, config: Record<string, unknown>, everyMs: number, stop: AbortSignal, counts: TrafficCounts): Promise<void> {
  for (let i = 0; !stop.aborted; i++) {
    await pause(everyMs, stop);
    if (stop.aborted) break;
    const pools = structuredClone(config.pools) as Record<string, { members: Array<{ model: string; weight?: number }> }>;
    for (const pool of Object.values(pools)) pool.members.forEach((m, j) => (m.weight = 1 + ((i + j) % 3)));
    const r = await post(`${adminUrl}/config/apply`, JSON.stringify({ config: { ...config, pools } }), {});
    if (r.status === 200) counts.applied++;
    else unexpected(counts, `config apply: ${r.status} ${r.text.slice(0, 160)}`);
  }
}

function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      stop.removeEventListener('abort', done);
      resolve();
    }
    stop.addEventListener('abort', done, { once: true });
  });
}
