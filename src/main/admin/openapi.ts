// GET /openapi.json: the admin API's OpenAPI 3.1 document, unauthenticated (it holds no data).
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import { openApiDocument } from './openapi-document.js';
import type { AdminRoute } from './route.js';

const OpenApiView = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({ title: Type.String(), version: Type.String() }),
    paths: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
    components: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'OpenApiDocument' },
);

/** The route that serves the document of `allRoutes()`: routes.ts passes its own list, so this
 * file does not import it (no cycle). */
export function openApiRoutes(allRoutes: () => AdminRoute<AdminContext>[]): AdminRoute<AdminContext>[] {
  let cached: unknown = null;
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI 3.1 document',
      tag: 'openapi',
      public: true,
      responses: { 200: OpenApiView },
      async handler() {
        cached ??= openApiDocument(allRoutes() as never);
        return { status: 200, body: cached };
      },
    },
  ];
}
