// A service-account JSON (Google style): who signs the JWT-bearer assertion, with which key,
// and where to exchange it. Parsed at load to fail early, and again by the compiler.
import { createPrivateKey } from 'node:crypto';

export interface ServiceAccount {
  clientEmail: string;
  privateKeyPem: string;
  tokenUri?: string;
}

export function parseServiceAccount(text: string): ServiceAccount | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'not a service-account JSON document (it does not parse as JSON)' };
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof record.client_email !== 'string' || typeof record.private_key !== 'string') {
    return { error: 'not a service-account JSON document (needs client_email and private_key)' };
  }
  const keyProblem = privateKeyProblem(record.private_key);
  if (keyProblem !== undefined) return { error: `private_key of the service account: ${keyProblem}` };
  return {
    clientEmail: record.client_email,
    privateKeyPem: record.private_key,
    tokenUri: typeof record.token_uri === 'string' ? record.token_uri : undefined,
  };
}

/** Why `pem` is not a usable private key, or undefined when it is. Never echoes the key. */
export function privateKeyProblem(pem: string): string | undefined {
  try {
    createPrivateKey({ key: pem, format: 'pem' });
    return undefined;
  } catch {
    return 'cannot parse the private key (expected an unencrypted PEM)';
  }
}
