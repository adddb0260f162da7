// `${VAR}` in any string value of the config is replaced by the environment variable's value.
// `$${` writes a literal `${`. An unset variable is an error at boot that names the variable
// and the setting; under --validate it is a note and the setting is left empty.
import { formatPath, issue, type PathSegment } from '../../shared/config/config-path.js';
import { isPlainObject } from '../../shared/config/schema-walk.js';
import type { LoadContext } from './load-result.js';

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Returns a copy of `value` with every `${VAR}` replaced; problems go to `ctx`. */
export function interpolate(value: unknown, segments: PathSegment[], ctx: LoadContext): unknown {
  if (typeof value === 'string') return value.includes('${') ? interpolateString(value, segments, ctx) : value;
  if (Array.isArray(value)) return value.map((item, index) => interpolate(item, [...segments, index], ctx));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = interpolate(item, [...segments, key], ctx);
    return out;
  }
  return value;
}

function interpolateString(text: string, segments: PathSegment[], ctx: LoadContext): string {
  const path = formatPath(segments);
  return text.replace(REFERENCE, (match, name: string | undefined) => {
    if (name === undefined) return '${';
    if (!NAME.test(name)) {
      ctx.issues.push(issue(path, `invalid variable reference ${JSON.stringify(match)} (expected \${NAME})`));
      return '';
    }
    const found = ctx.env[name];
    if (found !== undefined) return found;
    ctx.unresolvedPaths.push(path);
    if (ctx.purpose === 'validate') ctx.notes.push(`${path}: environment variable ${name} is not set (boot would refuse to start)`);
    else ctx.issues.push({ ...issue(path, `environment variable ${name} is not set (\${${name}})`), cause: true });
    return '';
  });
}
