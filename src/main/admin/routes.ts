// Every admin route, by resource. A resource file exports its AdminRoute array; it is added
// here with one line.
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { adminAuthRoutes } from './admin-auth.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { configRoutes } from './config.js';
import { configVersionRoutes } from './config-versions.js';
import { infoRoutes } from './info.js';
import { openApiRoutes } from './openapi.js';
import { pluginRoutes } from './plugins.js';
import { restartRoutes } from './restart.js';
import { keyRoutes } from './keys.js';
import { groupRoutes } from './groups.js';
import { usageRoutes } from './usage.js';
import { authCacheRoutes } from './auth-cache.js';
import { poolRoutes } from './pools.js';
import { modelRoutes } from './models.js';
import { providerRoutes } from './providers.js';
import { hookRoutes } from './hooks.js';

export const ADMIN_ROUTES: AdminRoute<AdminContext>[] = [
  ...infoRoutes,
  ...authRoutes,
  ...adminAuthRoutes,
  ...configRoutes,
  ...configVersionRoutes,
  ...pluginRoutes,
  ...restartRoutes,
  ...auditRoutes,
  ...openApiRoutes(() => ADMIN_ROUTES),
  ...keyRoutes,
  ...groupRoutes,
  ...usageRoutes,
  ...authCacheRoutes,
  ...poolRoutes,
  ...modelRoutes,
  ...providerRoutes,
  ...hookRoutes,
];
