// Process entry for the bench's mock provider: `node dist/bench/targets/mock-main.js --listen
// 127.0.0.1:PORT [mock flags]`. It runs the project's mock (src/mock/cli.ts) in a process of its
// own; BENCH_MOCK_CLI may point at another module exporting the same `runMockProviderCli`.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { mockCliModulePath } from './mock.js';

const modulePath = mockCliModulePath();
if (!existsSync(modulePath)) {
  process.stderr.write(`mock provider not built: ${modulePath} is missing (run make build)\n`);
  process.exit(2);
}
const mod = (await import(pathToFileURL(modulePath).href)) as { runMockProviderCli?: (argv: string[]) => unknown };
if (typeof mod.runMockProviderCli !== 'function') {
  process.stderr.write(`${modulePath} does not export runMockProviderCli(argv)\n`);
  process.exit(2);
}
await mod.runMockProviderCli(process.argv.slice(2));
