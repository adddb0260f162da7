#!/usr/bin/env node
// Build step (package.json "build", after build-openapi.mjs wrote the console's API types):
// bundles the admin console (src/console/, preact + htm + openapi-fetch + yaml) with esbuild
// into dist/console/app.js, beside its index.html and app.css. The admin listener serves
// exactly these three files at /console/ (src/main/admin/console-static.ts).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist/console');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, 'src/console/main.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
});
for (const name of ['index.html', 'app.css']) copyFileSync(join(root, 'src/console', name), join(out, name));
