// Docs that stay true: every repository path a doc names exists (a file moved or deleted
// without its docs fails here), and no doc names a path on one developer's machine.
//
// The docs are the README files and everything under docs/ (decision records included); bench
// result files are output, not docs. A repository path is a word that starts with one of the
// top-level folders (`src/`, `test/`, `bench/`, ...), or a relative markdown link. A built path
// (`dist/src/cli.js`) names its source (`src/cli.ts`). A path cut by a placeholder or a glob
// (`bench/results/<date>.md`, `test/main/store/conformance-*.test.ts`) must have its folder.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TOP_FOLDERS = ['src', 'test', 'bench', 'docs', 'scripts', 'config', 'deploy', 'examples', '.ci'];
const REPO_PATH = new RegExp(`(?<![\\w/.\\-])((?:dist/)?(?:${TOP_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w.@/\\-]*)`, 'g');
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
/** Roots where a machine keeps its users' and workspaces' files: never the repository's. */
const MACHINE_PATH = /(?<![\w.\-/:])(?:~\/|\/(?:home|root|Users|work|workspace|mnt|media|srv)\/)[\w.@/\-]*/g;

function docFiles(): string[] {
  const out = readdirSync(ROOT).filter((f) => f.endsWith('.md'));
  const walk = (dir: string, match: (name: string) => boolean): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const rel = join(dir, name);
      if (statSync(join(ROOT, rel)).isDirectory()) walk(rel, match);
      else if (match(name)) out.push(rel);
    }
  };
  walk('docs', (name) => name.endsWith('.md'));
  walk('src', (name) => name === 'README.md');
  out.push(
    ...readdirSync(join(ROOT, 'bench'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('bench', f)),
  );
  return out.sort();
}

/** The source a named path stands for, repository-relative. */
function sourceOf(path: string, next: string): string {
  let p = path.replace(/[.\-/]+$/, '');
  if (p.startsWith('dist/'))
    p = p
      .slice(5)
      .replace(/\.js$/, '.ts')
      .replace(/\.wasm$/, '.wat');
  if ('*<{'.includes(next) && next !== '') p = p.slice(0, Math.max(p.lastIndexOf('/'), 0));
  return p;
}

/** `file:line: path` for every repository path in `doc` that does not exist. */
function missingPaths(doc: string, text: string): string[] {
  const missing: string[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(REPO_PATH)) {
    const named = m[1]!;
    const source = sourceOf(named, text.charAt(m.index + named.length));
    if (source !== '' && !existsSync(join(ROOT, source))) missing.push(`${doc}:${lineOf(m.index)}: ${named}`);
  }
  for (const m of text.matchAll(MARKDOWN_LINK)) {
    const target = m[1]!.split('#')[0]!;
    if (target === '' || /^[a-z]+:/.test(target)) continue;
    const full = resolve(ROOT, dirname(doc), target);
    const rel = relative(ROOT, full);
    if (rel.startsWith('..')) missing.push(`${doc}:${lineOf(m.index)}: ${target} (outside the repository)`);
    else if (!existsSync(full)) missing.push(`${doc}:${lineOf(m.index)}: ${target}`);
  }
  return missing;
}

/** `file:line: path` for every path on a developer's machine that `doc` names. */
function machinePaths(doc: string, text: string): string[] {
  return [...text.matchAll(MACHINE_PATH)].map((m) => `${doc}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
}

describe('docs name only paths that exist in the repository', () => {
  const docs = docFiles();

  it('finds the docs', () => {
    assert.ok(docs.includes('README.md') && docs.includes('docs/routing.md') && docs.includes('src/mock/README.md'), docs.join(', '));
  });

  it('every repository path a doc names exists', () => {
    const missing = docs.flatMap((doc) => missingPaths(doc, readFileSync(join(ROOT, doc), 'utf8')));
    assert.deepEqual(missing, []);
  });

  it('no doc names a path outside the repository', () => {
    const outside = docs.flatMap((doc) => machinePaths(doc, readFileSync(join(ROOT, doc), 'utf8')));
    assert.deepEqual(outside, []);
  });

  it('the checks catch what they are for', () => {
    assert.deepEqual(missingPaths('docs/x.md', 'see `src/worker/nowhere.ts` and src/main/boot.ts'), ['docs/x.md:1: src/worker/nowhere.ts']);
    assert.deepEqual(missingPaths('docs/x.md', '`node dist/bench/run.js`, `bench/results/<date>.md`, `test/main/store/conformance-*.test.ts`'), []);
    assert.deepEqual(missingPaths('docs/x.md', '[a](routing.md) [b](gone.md#part) [c](https://example.com) [d](../../elsewhere.md)'), [
      'docs/x.md:1: gone.md',
      'docs/x.md:1: ../../elsewhere.md (outside the repository)',
    ]);
    assert.deepEqual(machinePaths('README.md', 'the spec in /work/shared/spec.md, ~/notes.txt; /etc/gateway/config.yaml is fine'), [
      'README.md:1: /work/shared/spec.md',
      'README.md:1: ~/notes.txt',
    ]);
  });
});
