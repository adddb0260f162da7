// Standalone entry: `node dist/src/mock/main.js [flags]`, the same as `gateway mock-provider`,
// for running the mock in its own process (the bench keeps load client and servers apart).
import process from 'node:process';
import { runMockProviderCli } from './cli.js';

runMockProviderCli(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
});
