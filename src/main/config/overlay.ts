// The overlay file of API-applied changes, and the boot invariant that guards it: a config is
// either locked, or has an overlay it can write. Nothing here writes but ensureOverlayFolder
// (boot makes a missing folder, so a fresh clone starts); the admin plane writes the file.
import { access, constants, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { issue, type ConfigIssue } from '../../shared/config/config-path.js';
import { OverlayFile } from '../../shared/config/schema/overlay.js';
import { applyDefaults } from '../../shared/config/schema-defaults.js';
import { schemaIssues } from '../../shared/config/schema-errors.js';
import { fsReason } from './fs-reason.js';

export interface OverlayRead {
  /** Undefined when there is no overlay file (nothing applied yet). */
  overlay?: OverlayFile;
  issues: ConfigIssue[];
}

export async function readOverlay(path: string): Promise<OverlayRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { issues: [] };
    return { issues: [issue(path, `cannot read the overlay: ${fsReason(error)} (--safe-mode ignores it)`)] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { issues: [issue(path, `the overlay is not valid JSON: ${(error as Error).message} (--safe-mode ignores it)`)] };
  }
  const filled = applyDefaults(OverlayFile, parsed);
  const problems = schemaIssues(OverlayFile, filled).map((item) => issue(item.path === '' ? path : `${path}: ${item.path}`, item.message));
  if (problems.length > 0) return { issues: problems };
  return { overlay: filled as OverlayFile, issues: [] };
}

/**
 * "mutable config with no writable overlay" refuses to boot: the overlay's folder must be a
 * writable directory, or missing under a writable one (boot makes it: ensureOverlayFolder), and
 * the file, if present, must be a writable file.
 */
export async function checkOverlayWritable(path: string): Promise<ConfigIssue[]> {
  const where = 'config.overlay.file';
  const refuse = (why: string) => [issue(where, `mutable config with no writable overlay: ${why} (fix it, or set config.locked: true)`)];
  const folder = await nearestExisting(dirname(path));
  try {
    if (!(await stat(folder)).isDirectory()) return refuse(`${folder} is not a directory`);
    await access(folder, constants.W_OK);
  } catch (error) {
    return refuse(`folder ${folder}: ${fsReason(error)}`);
  }
  try {
    const file = await stat(path);
    if (!file.isFile()) return refuse(`${path} is not a regular file`);
    await access(path, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return refuse(`${path}: ${fsReason(error)}`);
  }
  return [];
}

/** `folder`, or its nearest ancestor that exists (the one a missing folder would be made in). */
async function nearestExisting(folder: string): Promise<string> {
  for (let at = folder; ; ) {
    try {
      await stat(at);
      return at;
    } catch (error) {
      const parent = dirname(at);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return at;
      at = parent;
    }
  }
}

/** Boot only (never --validate, which writes nothing): make the overlay's folder when missing. */
export async function ensureOverlayFolder(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
}
