// `--compare REF`: another commit's gateway built in a temporary git worktree, so that a
// change's effect is one bench run with both builds' rows interleaved. node_modules is linked
// from this checkout when REF has the same package-lock.json; otherwise REF gets its own
// (`npm ci`, slower), so it never builds or runs against dependencies it did not lock.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_DIR } from './paths.js';

export interface CompareBuild {
  /** The ref as given, and its short commit, for labels. */
  ref: string;
  commit: string;
  /** The built gateway's cli.js. */
  cli: string;
  /** Removes the worktree (idempotent). */
  remove(): void;
}

/** Checks out `ref` under `tempDir/compare-REF`, builds it, and gives its cli.js. */
export function buildCompare(ref: string, tempDir: string, log: (line: string) => void): CompareBuild {
  const commit = execFileSync('git', ['-C', REPO_DIR, 'rev-parse', '--short', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tempDir, `compare-${commit}`);
  log(`bench: --compare ${ref}: building ${commit} in ${dir}...`);
  execFileSync('git', ['-C', REPO_DIR, 'worktree', 'add', '--detach', dir, commit], { stdio: ['ignore', 'ignore', 'pipe'] });
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    spawnSync('git', ['-C', REPO_DIR, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
  };
  try {
    const sameLock = readFileSync(join(REPO_DIR, 'package-lock.json'), 'utf8') === readFileSync(join(dir, 'package-lock.json'), 'utf8');
    if (sameLock) symlinkSync(join(REPO_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');
    else {
      log(`bench: --compare ${ref}: its package-lock.json differs, installing its own dependencies (npm ci)...`);
      const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8' });
      if (ci.status !== 0) throw new Error(`npm ci for ${ref} (${commit}) failed:\n${`${ci.stdout ?? ''}${ci.stderr ?? ''}`.trim().slice(-2000)}`);
    }
    const built = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8' });
    const cli = join(dir, 'dist/src/cli.js');
    if (built.status !== 0 || !existsSync(cli)) {
      throw new Error(`the build of ${ref} (${commit}) failed:\n${`${built.stdout ?? ''}${built.stderr ?? ''}`.trim().slice(-2000)}`);
    }
    return { ref, commit, cli, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
