// docs/configuration.md documents every setting the schemas know.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { DeploymentConfig } from '../../../src/shared/config/schema/deployment.js';
import { ProviderCatalog } from '../../../src/shared/config/schema/providers.js';
import { kindOf, recordValueSchema } from '../../../src/shared/config/schema-walk.js';

const DOC = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');

/** Dotted paths of every named setting: `pools.<name>.members[].model`. */
function settingPaths(schema: TSchema, path: string, out: string[]): string[] {
  switch (kindOf(schema)) {
    case 'Object':
      for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
        const child = path === '' ? key : `${path}.${key}`;
        // Containers (failover, breaker, ...) are documented through their settings.
        if (kindOf(property) !== 'Object' && kindOf(property) !== 'Record') out.push(child);
        settingPaths(property, child, out);
      }
      break;
    case 'Record':
      settingPaths(recordValueSchema(schema), `${path}.<name>`, out);
      break;
    case 'Array':
      settingPaths(schema.items as TSchema, `${path}[]`, out);
      break;
    case 'Union':
      if (schema['x-secret-ref'] !== true) for (const variant of schema.anyOf as TSchema[]) settingPaths(variant, path, out);
      break;
  }
  return out;
}

describe('docs/configuration.md', () => {
  it('mentions every setting, by its path or (inside a table of modes) by its name', () => {
    const paths = [...settingPaths(DeploymentConfig, '', []), ...settingPaths(ProviderCatalog, '', [])];
    const missing = [...new Set(paths)].filter((path) => {
      const last = path.split('.').pop() as string;
      return !DOC.includes(`\`${path}\``) && !DOC.includes(`\`${last}\``);
    });
    assert.deepEqual(missing, []);
  });
});
