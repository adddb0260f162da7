#!/usr/bin/env node
// The `gateway` command: boot the gateway, or one of its subcommands.
//   gateway [--config PATH] [--validate] [--print-metadata-blocklist] [--safe-mode]
//   gateway mock-provider [flags]     the bundled mock model provider (see src/mock)
//   gateway audit verify [--config PATH]   check the durable audit log's hash chain
//   gateway hook-test <socket|url>         send describe and status to a hook, print the replies
import process from 'node:process';
import { parseArgs } from 'node:util';

const USAGE = `usage: gateway [--config PATH] [--validate] [--print-metadata-blocklist] [--safe-mode]
       gateway mock-provider [--port N] [flags]   (gateway mock-provider --help)
       gateway audit verify [--config PATH]       (exit 0 intact, 1 names the first broken entry)
       gateway hook-test <socket|url> [--secret S] [--timeout-ms N]   (describe + status; exit 0 when both answer)`;

/** Config path: --config, else GATEWAY_CONFIG, else /etc/gateway/config.yaml. */
export function configPathFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.GATEWAY_CONFIG ?? '/etc/gateway/config.yaml';
}

async function main(argv: string[]): Promise<number | null> {
  if (argv[0] === 'mock-provider') {
    const { runMockProviderCli } = await import('./mock/cli.js');
    await runMockProviderCli(argv.slice(1));
    return null; // runs until signalled
  }
  if (argv[0] === 'audit') return auditCommand(argv.slice(1));
  if (argv[0] === 'hook-test') {
    const { runHookTest } = await import('./main/hooks/hook-test-command.js');
    return runHookTest(argv.slice(1), process.stdout, process.stderr);
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        validate: { type: 'boolean', default: false },
        'print-metadata-blocklist': { type: 'boolean', default: false },
        'safe-mode': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`gateway: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const configPath = configPathFrom(values.config, process.env);
  const safeMode = values['safe-mode'] === true;
  if (values['print-metadata-blocklist']) {
    const { runPrintMetadataBlocklist } = await import('./main/config/commands.js');
    return runPrintMetadataBlocklist({ configPath }, process.stdout, process.stderr);
  }
  if (values.validate) {
    const { runValidate } = await import('./main/config/commands.js');
    return runValidate({ configPath, safeMode }, process.stdout, process.stderr);
  }
  const { boot } = await import('./main/boot.js');
  await boot({ configPath, safeMode });
  return null; // serves until signalled
}

async function auditCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { config: { type: 'string' } }, strict: true, allowPositionals: true });
  } catch (err) {
    process.stderr.write(`gateway audit: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.positionals.length !== 1 || parsed.positionals[0] !== 'verify') {
    process.stderr.write(`gateway audit: expected "verify"\n${USAGE}\n`);
    return 2;
  }
  const { runAuditVerify } = await import('./main/audit/verify-command.js');
  return runAuditVerify({ configPath: configPathFrom(parsed.values.config, process.env) }, process.stdout, process.stderr);
}

// `gateway --print-metadata-blocklist | head -1` closes the pipe early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`gateway: ${err.message}\n`);
    // Exit now: a boot that failed half-way (the admin port taken) may have workers running
    // that would otherwise keep a process alive that serves nothing an operator can manage.
    process.exit(1);
  },
);
