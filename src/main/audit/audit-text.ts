// What may appear in an audit entry's text fields. The chain hashes the spec's formula,
// sha256(prev_hash|seq|ts|action|resource|outcome|principal), which is unambiguous only when no
// field can hold the separator: a group named `ops|rejected` once let a row's resource and
// outcome be rewritten with the hash unchanged. So every name that reaches `resource` or
// `principal` is refused with `|` or a control character on every write path (keys, groups,
// hooks, identity providers in the config), ids derived from outside input (an IdP's `sub`) are
// escaped, whatever a route still puts in `resource` for a refused attempt is escaped and
// bounded before it is appended, and `gateway audit verify` checks each field's domain.

/** A name that may reach an audit field: no `|`, no C0/C1 control character, no DEL. */
const AUDIT_NAME_PATTERN = '^[^|\\u0000-\\u001f\\u007f-\\u009f]+$';

/** The schema of such a name in an admin body (a group, a hook): at most 128 characters, a clear refusal. */
export const AUDIT_NAME_SCHEMA_OPTIONS = {
  minLength: 1,
  maxLength: 128,
  pattern: AUDIT_NAME_PATTERN,
  'x-pattern-message': 'must not contain "|" or control characters (the audit chain joins its fields with "|")',
  description: 'No "|" and no control characters (the name reaches the audit chain).',
} as const;
// The control characters are what these patterns are for: they are refused in names.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN = /[|\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN_ALL = /[|%\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN_ONLY = /[|\u0000-\u001f\u007f-\u009f]/g;

/** Longest `resource` kept in an entry; a longer one is cut and says how much was cut. */
const AUDIT_RESOURCE_MAX_CHARS = 256;

/** Why `name` may not name something that reaches the audit chain, or null. */
export function auditNameProblem(name: string): string | null {
  if (FORBIDDEN.test(name)) return 'must not contain "|" or control characters (the audit chain joins its fields with "|")';
  return null;
}

function percent(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * An id part made from outside input (an IdP's `sub`, e.g. Auth0's `auth0|123`) without `|` or
 * control characters: those and `%` percent-encoded, so two different inputs never give one id.
 */
export function auditSafeId(text: string): string {
  return text.replace(FORBIDDEN_ALL, percent);
}

/**
 * The `resource` as appended: `|` and control characters percent-encoded (a refused attempt
 * may name anything), then cut to AUDIT_RESOURCE_MAX_CHARS with the length of what was cut.
 */
export function auditResource(resource: string): string {
  const safe = FORBIDDEN.test(resource) ? resource.replace(FORBIDDEN_ONLY, percent) : resource;
  if (safe.length <= AUDIT_RESOURCE_MAX_CHARS) return safe;
  const kept = safe.slice(0, AUDIT_RESOURCE_MAX_CHARS - 32);
  return `${kept}...[${safe.length - kept.length} more chars]`;
}

/** `noun.verb`, lower case words. */
const ACTION = /^[a-z][a-z_]*\.[a-z][a-z_]*$/;
/** The principals the admin plane makes: the operator, the open posture, a virtual key, an IdP user. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const PRINCIPAL = /^(?:admin|anonymous|key_[A-Za-z0-9_-]+|idp:[^:|\u0000-\u001f\u007f-\u009f]+:user:[^|\u0000-\u001f\u007f-\u009f]+)$/;

/** Why a stored entry's fields are outside their domains, or null (`gateway audit verify`). */
export function auditFieldProblem(e: { action: string; resource: string; outcome: string; principal: string }): string | null {
  if (e.outcome !== 'applied' && e.outcome !== 'rejected') return `outcome "${e.outcome.slice(0, 40)}" is neither applied nor rejected`;
  if (!PRINCIPAL.test(e.principal)) return `principal "${e.principal.slice(0, 80)}" is not admin, anonymous, a key id or an identity-provider user`;
  if (!ACTION.test(e.action)) return `action "${e.action.slice(0, 40)}" is not noun.verb`;
  if (FORBIDDEN.test(e.resource)) return 'resource holds "|" or a control character';
  if (e.resource.length > AUDIT_RESOURCE_MAX_CHARS) return `resource is longer than ${AUDIT_RESOURCE_MAX_CHARS} characters`;
  return null;
}
