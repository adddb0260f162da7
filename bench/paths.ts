// Where things are, from the compiled file's own location (dist/bench/paths.js), so the bench
// works from any working directory.
import { fileURLToPath } from 'node:url';

/** The build output root: `dist/`. */
export const DIST_DIR = fileURLToPath(new URL('../', import.meta.url));
/** The repository root. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** Markdown results land here by default. */
export const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));
