// Every admin route, by resource. A resource file exports its AdminRoute array; it is added
// here with one line.
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { configRoutes } from './config.js';
import { infoRoutes } from './info.js';
import { poolRoutes } from './pools.js';
import { modelRoutes } from './models.js';
import { providerRoutes } from './providers.js';

export const ADMIN_ROUTES: AdminRoute<AdminContext>[] = [
  ...infoRoutes,
  ...configRoutes,
  ...poolRoutes,
  ...modelRoutes,
  ...providerRoutes,
];
