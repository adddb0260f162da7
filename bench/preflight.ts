// One request before any load, checked against the scenario's expectation: a target that
// answers 404 or an error body would otherwise produce a fast, meaningless row.
import type { Scenario } from './scenario.js';

const ATTEMPTS = 3;
const RETRY_MS = 500;

/** Throws a message naming the target, the request and what came back. */
export async function preflight(baseUrl: string, label: string, scenario: Scenario): Promise<void> {
  const { request, expect } = scenario;
  let problem = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const res = await fetch(baseUrl + request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.text();
      const statusOk = expect?.status === undefined ? res.status >= 200 && res.status < 300 : res.status === expect.status;
      if (statusOk && (expect?.bodyIncludes === undefined || body.includes(expect.bodyIncludes))) return;
      problem = statusOk
        ? `the response lacks ${JSON.stringify(expect?.bodyIncludes)}: ${body.slice(0, 300)}`
        : `answered ${res.status}: ${body.slice(0, 300)}`;
      // A wrong status that is not "starting up" will not change on a retry.
      if (res.status !== 502 && res.status !== 503) break;
    } catch (err) {
      problem = `request failed: ${(err as Error).message}`;
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  throw new Error(`${label}: ${request.method} ${request.path} ${problem}`);
}
