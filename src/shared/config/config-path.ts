// How the gateway names a place in its configuration: `pools.main.members[1].model`. Every
// config error starts with one of these so the operator can find the culprit. Keys that are
// not plain words (model names like `gpt-4.1`) are bracketed so the path stays unambiguous.

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** One configuration problem: where it is and what is wrong. Never carries a secret. */
export interface ConfigIssue {
  path: string;
  message: string;
  /** A root cause (e.g. an unset variable) that stays when errors downstream of it are dropped. */
  cause?: boolean;
}

export function issue(segments: readonly PathSegment[] | string, message: string): ConfigIssue {
  return { path: typeof segments === 'string' ? segments : formatPath(segments), message };
}

export function renderIssue(item: ConfigIssue): string {
  return item.path === '' ? item.message : `${item.path}: ${item.message}`;
}

/** True when `path` is `prefix` itself or lies under it (`a.b` is under `a`, `a[0]` too). */
export function isUnderPath(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '.' || next === '[';
}
