#!/usr/bin/env node
// Lint step (package.json "lint", after the build): the build writes docs/openapi.json from the
// admin route declarations; this fails when that document differs from the committed one
// (git's index), so a route change cannot land without the document it serves.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const DOC = 'docs/openapi.json';

function git(args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.error !== undefined || r.status === null) {
    console.error(`check-openapi: git did not run (${r.error?.message ?? r.signal}); the check needs a git checkout`);
    process.exit(1);
  }
  return r;
}

if (git(['ls-files', '--error-unmatch', '--', DOC]).status !== 0) {
  console.error(`check-openapi: ${DOC} is not committed; run \`npm run build\` and commit it`);
  process.exit(1);
}
const diff = git(['diff', '--stat', '--exit-code', '--', DOC]);
if (diff.status !== 0) {
  console.error(
    `check-openapi: the build regenerated ${DOC} from the admin routes and it differs from the committed one:\n${diff.stdout}` +
      `review the change (git diff ${DOC}) and commit it with the route change`,
  );
  process.exit(1);
}
