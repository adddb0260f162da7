// `--compare REF`: another commit's gateway built in a temporary git worktree, so that a
// change's effect is one bench run with both builds' rows interleaved. node_modules is linked
// from this checkout (same lockfile in the common case; a REF whose dependencies differ fails
// its build loudly rather than measuring the wrong thing).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
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
    symlinkSync(join(REPO_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');
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
