// Structured JSON logs (pino). Each thread makes its own logger writing synchronously to
// stdout/stderr, so lines from different threads never interleave mid-line and nothing is
// lost when a thread dies. Secrets are redacted by path as a second line of defence.
import process from 'node:process';
import { pino, type Logger } from 'pino';
import { isMainThread, threadId } from 'node:worker_threads';

export type { Logger } from 'pino';

const level = process.env.GATEWAY_LOG_LEVEL ?? 'info';

export function createLogger(component: string): Logger {
  return pino(
    {
      level,
      base: { component, thread: isMainThread ? 'main' : `worker-${threadId}` },
      redact: { paths: ['*.secret', '*.token', '*.authorization', '*.api_key', '*.key'], censor: '[redacted]' },
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
