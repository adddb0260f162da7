// The compiled-in secret module `generated`: a secret made on first boot and kept in a file, so
// the shipped config starts on a fresh clone with nothing set (the quickstart's admin token and
// key-signing key). `{ module: generated, settings: { file, kind, env? } }`:
// - `env` set and not empty in the environment: that value, as `{ env: VAR }` would give;
// - else the file's content when it exists (trailing whitespace dropped, as `{ file: }`);
// - else, at boot, a new secret of `kind` (`token`: 32 random bytes, base64url, with a prefix;
//   `ed25519`: a PKCS#8 PEM private key), written to the file (mode 0600, its folder made) and
//   used. --validate writes nothing: it notes that the secret will be made at first boot.
// One node only: several gateways sharing a store need the same signing key from env or a file.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { issue } from '../../shared/config/config-path.js';
import { fsReason } from './fs-reason.js';
import type { LoadContext } from './load-result.js';
import { readSecretFile } from './secret-file.js';

export const GENERATED_SECRET_MODULE = 'generated';

const KINDS = ['token', 'ed25519'] as const;
type Kind = (typeof KINDS)[number];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SETTINGS = new Set(['file', 'kind', 'env']);

function make(kind: Kind): string {
  if (kind === 'token') return `gen_${randomBytes(32).toString('base64url')}`;
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** The secret at config path `where` (undefined when an issue was recorded or validate defers it). */
export async function resolveGenerated(where: string, settings: Record<string, unknown>, ctx: LoadContext): Promise<string | undefined> {
  const { file, kind, env } = settings;
  const unknown = Object.keys(settings).filter((k) => !SETTINGS.has(k));
  if (unknown.length > 0)
    ctx.issues.push(
      issue(`${where}.settings`, `unknown setting ${unknown.map((k) => `"${k}"`).join(', ')} of secret module "generated" (it takes file, kind, env)`),
    );
  if (typeof file !== 'string' || file === '') ctx.issues.push(issue(`${where}.settings.file`, 'the file the generated secret is kept in is required'));
  if (!KINDS.includes(kind as Kind)) ctx.issues.push(issue(`${where}.settings.kind`, `must be one of ${KINDS.join(', ')}`));
  if (env !== undefined && (typeof env !== 'string' || !ENV_NAME.test(env)))
    ctx.issues.push(issue(`${where}.settings.env`, 'must be an environment variable name'));
  if (typeof file !== 'string' || file === '' || !KINDS.includes(kind as Kind) || (env !== undefined && (typeof env !== 'string' || !ENV_NAME.test(env))))
    return undefined;

  if (typeof env === 'string') {
    const value = ctx.env[env];
    if (value !== undefined && value !== '') return value;
  }
  const path = isAbsolute(file) ? file : resolve(ctx.configDir, file);
  const read = await readSecretFile(path);
  if ('text' in read) {
    if (read.text !== '') return read.text;
    ctx.issues.push(issue(where, `secret file ${path} is empty (delete it and a new secret is made at boot)`));
    return undefined;
  }
  if (ctx.purpose === 'validate') {
    ctx.notes.push(`${where}: generated at first boot into ${path}`);
    return undefined;
  }
  return writeNew(where, path, kind as Kind, ctx);
}

async function writeNew(where: string, path: string, kind: Kind, ctx: LoadContext): Promise<string | undefined> {
  const secret = make(kind);
  try {
    await mkdir(dirname(path), { recursive: true });
    // `wx`: a second process booting at the same moment keeps the first one's secret.
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const read = await readSecretFile(path);
      if ('text' in read && read.text !== '') return read.text;
    }
    ctx.issues.push(issue(where, `cannot write the generated secret to ${path}: ${fsReason(error)}`));
    return undefined;
  }
  ctx.notes.push(`${where}: generated a new ${kind === 'token' ? 'token' : 'ed25519 key'} into ${path}`);
  return secret;
}
