// Writes the overlay file of API-made changes that survive a restart (PUT /config/settings,
// PUT /admin-auth): read, change one field, write a temp file and rename it over, so a crash
// leaves the old overlay or the new one, never half of one. Fields it does not know are kept.
import { readFile, rename, writeFile } from 'node:fs/promises';

export async function updateOverlay(path: string, change: (overlay: Record<string, unknown>) => void): Promise<void> {
  let overlay: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) overlay = parsed as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  change(overlay);
  const temp = `${path}.${process.pid}.tmp`;
  // It holds secret references, not secrets; still, only the gateway's user reads it.
  await writeFile(temp, `${JSON.stringify(overlay, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}
