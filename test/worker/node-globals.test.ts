// Node defines `Buffer`, `process`, `performance`, `TextDecoder` and `TextEncoder` on globalThis
// as getters: every use of the global name calls one (about 8 ns, and a LoadGlobalIC in the
// profile of the request path), where an imported binding is a plain load. The code the
// gateway's workers and main thread run imports them; this test keeps it so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src/worker', 'src/shared', 'src/main', 'src/mock'];
const ACCESSOR_GLOBALS = ['Buffer', 'process', 'performance', 'TextDecoder', 'TextEncoder'];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The code without comments and string contents, so a word in either is not a use. */
function codeOnly(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''")
    .replace(/`(?:[^`\\]|\\.)*`/g, '``');
}

/** The accessor globals `src` uses as values (a member read, `new`, `instanceof`) without importing them. */
export function unimportedGlobals(src: string): string[] {
  const code = codeOnly(src);
  return ACCESSOR_GLOBALS.filter((name) => {
    const used = new RegExp(`(?<![\\w.$])${name}\\s*\\.`).test(code) || new RegExp(`\\b(new|instanceof)\\s+${name}\\b`).test(code);
    const imported = new RegExp(`import[^;]*\\b${name}\\b[^;]*from 'node:`).test(src);
    return used && !imported;
  });
}

describe('accessor globals are imported', () => {
  it('finds a global use and accepts an imported one', () => {
    assert.deepEqual(unimportedGlobals('const b = Buffer.alloc(1); // process.env\n'), ['Buffer']);
    assert.deepEqual(unimportedGlobals("import { Buffer } from 'node:buffer';\nconst b = Buffer.alloc(1);\n"), []);
    assert.deepEqual(unimportedGlobals("const t: Buffer = x; const s = 'performance.now()';\n"), []);
    assert.deepEqual(unimportedGlobals('const d = new TextDecoder();\n'), ['TextDecoder']);
  });

  it('every source file the gateway runs imports the ones it uses', () => {
    const offenders: string[] = [];
    for (const dir of SOURCES) {
      for (const file of tsFiles(join(ROOT, dir))) {
        const missing = unimportedGlobals(readFileSync(file, 'utf8'));
        if (missing.length > 0) offenders.push(`${file.slice(ROOT.length)}: ${missing.join(', ')}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
