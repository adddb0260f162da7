// config.locked: every admin config mutation is refused with 403 (edit the file, then reload).
import type { AdminContext } from './context.js';
import { AdminError } from './route.js';

export function refuseWhenLocked(ctx: AdminContext): void {
  if (ctx.config.locked()) {
    throw new AdminError(403, 'forbidden', 'the config is locked (config.locked: true): edit the file and POST /config/reload');
  }
}
