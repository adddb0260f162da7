#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's test runner. Test files
// run in separate processes, two at a time (one per core on the target machine).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureTestPrerequisites } from './test-prereqs.mjs';

function find(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv[2];
const files = find('dist/test', [])
  .filter((f) => filter === undefined || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
ensureTestPrerequisites();
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
