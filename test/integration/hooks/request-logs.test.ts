// Request-log sinks, written by the main thread: the file sink rotates by size and loses no
// record below saturation (every request id once, across the live file and the rotated ones);
// records carry no prompt unless a sink opts in; a saturated webhook sink sheds and counts in
// gateway_webhook_logs_dropped_total.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { parseExposition, sampleValue } from '../../helpers/prometheus.js';
import { startRouting, type RoutingStack, alphaLanes } from '../routing/routing-stack.js';
import { eventually, HookDir, type HookProcess } from './hook-kit.js';

const REQUESTS = 120;
const INFLIGHT = 2;

describe('request-log sinks', () => {
  let hookDir: HookDir;
  let stack: RoutingStack;
  let slowWebhook: HookProcess;
  const logPath = () => join(hookDir.dir, 'requests.jsonl');

  before(async () => {
    hookDir = new HookDir('gw-request-logs-');
    // Answers each delivery after 5 s: with max_inflight 2 the sink saturates at once.
    slowWebhook = await hookDir.webhookTap('sink', ['--sleep-ms', '5000']);
    stack = await startRouting(
      (mockUrl) =>
        alphaLanes(mockUrl, ['a'], {
          pools: { chat: { members: [{ model: 'm-a' }] } },
          logs: {
            file: { path: logPath(), max_bytes: 4096, keep: 100 },
            webhook: { url: slowWebhook.target, max_inflight: INFLIGHT, include_prompt: true },
          },
          export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } },
        }),
      { workers: 2 },
    );
  });

  after(async () => {
    await stack?.close();
    await hookDir?.close();
  });

  /** Every record in the log and its rotated files; read again whole when a rotation renamed a file between the look and the read. */
  function fileRecords(): any[] {
    for (;;) {
      try {
        const out: any[] = [];
        for (let i = 100; i >= 0; i--) {
          const path = i === 0 ? logPath() : `${logPath()}.${i}`;
          if (!existsSync(path)) continue;
          for (const line of readFileSync(path, 'utf8').split('\n')) if (line !== '') out.push(JSON.parse(line));
        }
        return out;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }

  it('one record per finished request, rotated by size, none lost; no prompt unless opted in', async () => {
    const sdk = openaiSdk(stack.gateway.url);
    for (let batch = 0; batch < REQUESTS / 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          sdk.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `private words ${batch}-${i}` }] }),
        ),
      );
    }
    assert.ok(await eventually(() => fileRecords().length >= REQUESTS, 10_000), `got ${fileRecords().length} records`);
    const records = fileRecords();
    assert.equal(records.length, REQUESTS);
    assert.equal(new Set(records.map((r) => r.request_id)).size, REQUESTS, 'each request once');
    assert.ok(existsSync(`${logPath()}.1`), 'the file rotated');
    for (const r of records) {
      assert.deepEqual([r.pool, r.lane, r.provider, r.status, r.disposition, r.protocol, r.model], ['chat', 'm-a', 'alpha', 200, 'ok', 'openai', 'chat']);
      assert.equal(typeof r.duration_ms, 'number');
      assert.equal(r.tokens_output, 5);
      assert.equal(r.prompt, undefined, 'the file sink did not opt in to the prompt');
    }
    assert.equal(readFileSync(logPath(), 'utf8').includes('private words'), false);
  });

  it('a saturated webhook sink sheds and counts in gateway_webhook_logs_dropped_total', async () => {
    const res = await request(`${stack.gateway.url}/metrics`);
    const families = parseExposition(await res.body.text());
    const dropped = sampleValue(families, 'gateway_webhook_logs_dropped_total') ?? 0;
    assert.ok(dropped >= REQUESTS - INFLIGHT - 10, `dropped ${dropped}`);
    assert.equal(sampleValue(families, 'gateway_file_logs_dropped_total'), 0);
    // The deliveries that were in flight carry the prompt (this sink opted in).
    assert.ok(await eventually(() => slowWebhook.received().length >= 1, 10_000));
    assert.match(JSON.stringify(slowWebhook.received()[0].prompt), /private words/);
  });
});
