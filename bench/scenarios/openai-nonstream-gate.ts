// 1g. Scenario 1 (openai-nonstream) with one socket gate hook that orders the pool's members
// (the example gate of examples/hooks/, over a unix socket): run it beside openai-nonstream
// for the added p50/p99 of a gate round trip. The gate process is started with the gateway
// config and killed when the bench exits.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';

function startExampleGate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  const socket = join(dir, 'gate.sock');
  const child = spawn(process.execPath, [join(process.cwd(), 'examples', 'hooks', 'socket-gate.mjs'), '--socket', socket], { stdio: 'ignore' });
  child.unref();
  process.once('exit', () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  return socket;
}

export const scenario: Scenario = {
  name: 'openai-nonstream-gate',
  title: 'OpenAI chat, non-stream, through a pool with one socket gate that orders members',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig(files) {
    files.gateway.models = { ...(files.gateway.models as Record<string, unknown>), m2: { provider: 'mock', upstream_model: 'mock-gpt' } };
    files.gateway.hooks = { order: { kind: 'gate', socket: startExampleGate(), timeout_ms: 1000, on_error: 'weighted', settings: { order: ['m2'] } } };
    files.gateway.pools = { default: { members: [{ model: 'm' }, { model: 'm2' }], hooks: ['order'] } };
  },
  order: 11,
};
