// Every admin route, by resource. A resource file exports its AdminRoute array; it is added
// here with one line.
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { configRoutes } from './config.js';
import { infoRoutes } from './info.js';
import { keyRoutes } from './keys.js';
import { groupRoutes } from './groups.js';
import { usageRoutes } from './usage.js';
import { authCacheRoutes } from './auth-cache.js';

export const ADMIN_ROUTES: AdminRoute<AdminContext>[] = [
  ...infoRoutes,
  ...configRoutes,
  ...keyRoutes,
  ...groupRoutes,
  ...usageRoutes,
  ...authCacheRoutes,
];
