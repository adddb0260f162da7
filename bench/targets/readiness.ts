// Waiting for a started process to answer HTTP, while noticing if it died instead.
import type { ManagedChild } from '../child-processes.js';

export interface ReadinessOptions {
  /** Full URL to poll. */
  url: string;
  /** Accept this status only (e.g. 200 from /healthz); default any HTTP answer. */
  status?: number;
  timeoutMs: number;
}

const POLL_MS = 100;

/** Resolves once `url` answers; throws with the child's log tail if it exits or times out. */
export async function waitUntilAnswering(child: ManagedChild, opts: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.hasExited()) {
      const st = await child.exited;
      throw new Error(`${child.name} exited (${st.code ?? st.signal}) before answering ${opts.url}${tail(child)}`);
    }
    try {
      const res = await fetch(opts.url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (opts.status === undefined || res.status === opts.status) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`${child.name} did not answer ${opts.url} within ${opts.timeoutMs} ms (${last})${tail(child)}`);
}

function tail(child: ManagedChild): string {
  const t = child.logTail();
  return t === '' ? '' : `; its log ends with:\n${t}`;
}
