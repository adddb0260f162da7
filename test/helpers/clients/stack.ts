// The pair every data-plane integration test needs: one mock provider (all six protocols) and
// one real gateway process routing `pool-<protocol>` to the mock's `<protocol>` lane.
import { startMockProvider, type MockOptions, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig, type RunningGateway } from '../gateway.js';

export interface Stack {
  mock: MockServer;
  gateway: RunningGateway;
  /** Stops the gateway, then the mock; safe to call twice. */
  close(): Promise<void>;
}

export interface StackOptions {
  workers?: number;
  /** Top-level deployment config keys merged over mockConfig's. */
  over?: Record<string, unknown>;
  mock?: MockOptions;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const mock = await startMockProvider({ port: 0, ...opts.mock });
  let gateway: RunningGateway;
  try {
    const { config, providers } = mockConfig(mock.url, opts.over);
    gateway = await startGateway(writeConfig(config, providers), { workers: opts.workers ?? 1 });
  } catch (err) {
    await mock?.close();
    throw err;
  }
  let closed = false;
  return {
    mock,
    gateway,
    async close() {
      if (closed) return;
      closed = true;
      await gateway.stop();
      await mock?.close();
    },
  };
}

/** Polls `check` every 25 ms until it returns true or `timeoutMs` passes; returns the last result. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
