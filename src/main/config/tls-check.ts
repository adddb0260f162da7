// Reads and parses the inbound TLS material once, at load, so a bad certificate stops the
// process with a diagnostic instead of failing the first handshake. The PEM texts land in the
// resolved secrets under `tls.cert`, `tls.key` and `tls.client_ca` for the listener to use.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { issue } from '../../shared/config/config-path.js';
import { isPlainObject } from '../../shared/config/schema-walk.js';
import type { LoadContext } from './load-result.js';
import { readSecretFile } from './secret-file.js';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

type Field = 'cert' | 'key' | 'client_ca';

/** Checks `tls` (raw, after defaults) and stores the PEM texts into `secrets`. */
export async function checkTls(tls: unknown, secrets: Map<string, string>, ctx: LoadContext): Promise<void> {
  if (!isPlainObject(tls)) return;
  const cert = await pemOf('cert', tls.cert, secrets, ctx);
  const key = await pemOf('key', tls.key, secrets, ctx);
  const clientCa = await pemOf('client_ca', tls.client_ca, secrets, ctx);

  const leaf = cert === undefined ? undefined : parseCertificates('tls.cert', cert, ctx)[0];
  const privateKey = key === undefined ? undefined : parsePrivateKey(key, ctx);
  if (clientCa !== undefined) parseCertificates('tls.client_ca', clientCa, ctx);
  if (leaf !== undefined && privateKey !== undefined && !leaf.checkPrivateKey(privateKey)) {
    ctx.issues.push(issue('tls.key', 'does not match the leaf certificate of tls.cert'));
  }
  if (leaf !== undefined && Date.parse(leaf.validTo) < Date.now()) {
    ctx.warnings.push(`tls.cert: the leaf certificate expired on ${leaf.validTo}`);
  }
}

/** The PEM text of one field: inline PEM, a file path, or an already resolved secret. */
async function pemOf(field: Field, raw: unknown, secrets: Map<string, string>, ctx: LoadContext): Promise<string | undefined> {
  const path = `tls.${field}`;
  if (raw === undefined) return undefined;
  let pem: string | undefined;
  if (typeof raw === 'string') {
    if (raw.includes('-----BEGIN')) pem = raw;
    else if (raw !== '') {
      const file = isAbsolute(raw) ? raw : resolve(ctx.configDir, raw);
      const read = await readSecretFile(file);
      if ('error' in read) ctx.issues.push(issue(path, read.error));
      else pem = read.text;
    }
  } else {
    pem = secrets.get(path);
  }
  if (pem !== undefined) secrets.set(path, pem);
  return pem;
}

function parseCertificates(path: string, pem: string, ctx: LoadContext): X509Certificate[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)].filter((match) => match[1] === 'CERTIFICATE');
  if (blocks.length === 0) {
    ctx.issues.push(issue(path, 'cannot parse: no PEM "CERTIFICATE" block found'));
    return [];
  }
  const out: X509Certificate[] = [];
  blocks.forEach((block, index) => {
    try {
      out.push(new X509Certificate(block[0]));
    } catch (error) {
      ctx.issues.push(issue(path, `cannot parse certificate #${index + 1}: ${reason(error)}`));
    }
  });
  return out;
}

function parsePrivateKey(pem: string, ctx: LoadContext): KeyObject | undefined {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    ctx.issues.push(issue('tls.key', `cannot parse the private key (expected an unencrypted PKCS#8, PKCS#1 or SEC1 PEM): ${reason(error)}`));
    return undefined;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
