// `gateway hook-test <socket|url> [--secret S] [--timeout-ms N]`: a hook author's check. It
// sends `describe` and `status` over the same transport the gateway would use and prints the
// replies as JSON lines; exit 0 when both answered, 1 otherwise.
import { parseArgs } from 'node:util';
import { SocketTransport } from '../../shared/hooks/socket-transport.js';
import type { HookTransport } from '../../shared/hooks/transport.js';
import { WebhookTransport } from '../../shared/hooks/webhook-transport.js';

const HOOK_TEST_USAGE = 'gateway hook-test <socket-path|http(s)-url> [--secret S] [--timeout-ms N]';

export async function runHookTest(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { secret: { type: 'string' }, 'timeout-ms': { type: 'string' } }, strict: true, allowPositionals: true });
  } catch (e) {
    err.write(`gateway hook-test: ${(e as Error).message}\nusage: ${HOOK_TEST_USAGE}\n`);
    return 2;
  }
  const target = parsed.positionals[0];
  const timeoutMs = Number(parsed.values['timeout-ms'] ?? 2000);
  if (parsed.positionals.length !== 1 || target === undefined || !(timeoutMs > 0)) {
    err.write(`usage: ${HOOK_TEST_USAGE}\n`);
    return 2;
  }
  const transport: HookTransport = /^https?:\/\//.test(target)
    ? new WebhookTransport('hook-test', target, parsed.values.secret ?? '')
    : new SocketTransport('hook-test', target, { greeting: () => null, reconnect: false });
  let failures = 0;
  for (const type of ['describe', 'status'] as const) {
    try {
      const reply = await transport.request({ type }, timeoutMs);
      out.write(`${JSON.stringify({ sent: type, reply })}\n`);
    } catch (e) {
      failures++;
      out.write(`${JSON.stringify({ sent: type, error: (e as Error).message })}\n`);
    }
  }
  transport.close();
  return failures === 0 ? 0 : 1;
}
