// Where things are, from the compiled file's own location (dist/bench/paths.js), so the bench
// works from any working directory.
import { fileURLToPath } from 'node:url';

/** The build output root: `dist/`. */
export const DIST_DIR = fileURLToPath(new URL('../', import.meta.url));
/** The repository root. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** Reports land here by default: under the git-ignored var/, never in the repository. */
export const RESULTS_DIR = fileURLToPath(new URL('../../var/bench-results/', import.meta.url));
