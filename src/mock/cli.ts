// `gateway mock-provider [flags]`: starts the mock provider on 127.0.0.1, prints one JSON line
// `{"mock_provider":"listening","url":...,"port":...}` and runs until SIGTERM or SIGINT.
import process from 'node:process';
import { MOCK_SETTING_NAMES, settingName } from './settings.js';
import { startMockProvider, type MockOptions } from './server.js';

const USAGE = `usage: gateway mock-provider [--port N] [--token-expires-in SEC] [--<setting> VALUE ...]
settings (also per request as header x-mock-<setting> or prompt text [mock <setting>=VALUE ...]):
  ${MOCK_SETTING_NAMES.map((n) => '--' + n.replace(/_/g, '-')).join(' ')}
flags take "--name value" or "--name=value"; --require-auth alone means true.`;

/** Parses the flags into MockOptions; throws an Error naming a bad or unknown flag. */
export function parseMockProviderArgs(argv: readonly string[]): MockOptions {
  const opts: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`mock-provider: unexpected argument "${arg}"\n${USAGE}`);
    const eq = arg.indexOf('=');
    const rawName = arg.slice(2, eq < 0 ? undefined : eq);
    const name = rawName.replace(/-/g, '_');
    let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    const next = argv[i + 1];
    const takesNext = value === undefined && next !== undefined && !next.startsWith('--');
    if (name === 'require_auth' && value === undefined && !takesNext) value = 'true';
    if (value === undefined) {
      if (!takesNext) throw new Error(`mock-provider: --${rawName} needs a value`);
      value = next;
      i++;
    }
    if (name === 'port' || name === 'token_expires_in') {
      if (!/^\d+$/.test(value)) throw new Error(`mock-provider: --${rawName} must be a non-negative integer, got "${value}"`);
      opts[name] = Number(value);
    } else if (settingName(name) !== null) {
      opts[settingName(name)!] = value; // checked by startMockProvider, which names a bad value
    } else {
      throw new Error(`mock-provider: unknown flag --${rawName}\n${USAGE}`);
    }
  }
  return opts as MockOptions;
}

export async function runMockProviderCli(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const server = await startMockProvider(parseMockProviderArgs(argv));
  process.stdout.write(JSON.stringify({ mock_provider: 'listening', url: server.url, port: server.port }) + '\n');
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await server.close();
}
