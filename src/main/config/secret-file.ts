// Reading a secret (or PEM) file: small, text, its trailing newline dropped.
import { open } from 'node:fs/promises';
import { fsReason } from './fs-reason.js';

/** A secret or PEM file is small; anything larger is a mistake (the wrong path). */
const SECRET_FILE_MAX_BYTES = 1024 * 1024;

/** Reads a small text file; trailing whitespace (the usual final newline) is dropped. */
export async function readSecretFile(path: string): Promise<{ text: string } | { error: string }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return { error: `cannot read ${path}: ${fsReason(error)}` };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { error: `cannot read ${path}: ${fsReason({ code: 'EISDIR' })}` };
    if (stat.size > SECRET_FILE_MAX_BYTES) return { error: `${path} is larger than ${SECRET_FILE_MAX_BYTES} bytes; not a secret or PEM file` };
    return { text: (await handle.readFile('utf8')).trimEnd() };
  } catch (error) {
    return { error: `cannot read ${path}: ${fsReason(error)}` };
  } finally {
    await handle.close();
  }
}
