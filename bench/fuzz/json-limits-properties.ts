// Fuzz properties of the JSON limits scan (src/shared/protocols/framing/json-limits.ts): on any
// JSON text, spelt compact or spaced, its verdict is what a walk of JSON.parse's value gives for
// the same limits; on any bytes at all it returns a verdict and never throws. Shared by the
// seeded suite (test/fuzz, test/shared/.../json-limits.test.ts) and the long run (run.ts).
import fc from 'fast-check';
import {
  JSON_TOO_DEEP,
  JSON_TOO_MANY_MEMBERS,
  JSON_WITHIN_LIMITS,
  checkJsonLimits,
  type JsonLimitVerdict,
} from '../../src/shared/protocols/framing/json-limits.js';
import type { FuzzProperty } from './codec-properties.js';

/** Deepest nesting of arrays and objects (a scalar is 0) and members plus elements in all. */
export function measureOfValue(value: unknown): { depth: number; members: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, members: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  let depth = 0;
  let members = children.length;
  for (const child of children) {
    const m = measureOfValue(child);
    depth = Math.max(depth, m.depth);
    members += m.members;
  }
  return { depth: depth + 1, members };
}

/** The verdict a scan that stops at the first limit passed must give: depth or count, whichever the bytes reach first. */
function expectedVerdicts(value: unknown, maxDepth: number, maxMembers: number): JsonLimitVerdict[] {
  const m = measureOfValue(value);
  const deep = m.depth > maxDepth;
  const many = m.members > maxMembers;
  if (deep && many) return [JSON_TOO_DEEP, JSON_TOO_MANY_MEMBERS];
  if (deep) return [JSON_TOO_DEEP];
  if (many) return [JSON_TOO_MANY_MEMBERS];
  return [JSON_WITHIN_LIMITS];
}

/** Strings with what the scan must step over: quotes, backslashes, brackets, commas, controls, non-ASCII. */
const trickyString = fc.oneof(
  fc.string(),
  fc.constantFrom('"', '\\', '\\"', '[', ']', '{', '}', ',', ':', '\u0000', '\u2028', 'é', '😀', '"]}', '\\\\'),
  fc.array(fc.constantFrom('"', '\\', '[', '{', ',', 'a'), { maxLength: 12 }).map((parts) => parts.join('')),
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'medium', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyString,
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 6 }),
  ),
})).value;

export function jsonLimitsAgreeWithParse(): fc.IPropertyWithHooks<[unknown, number, number, number]> {
  return fc.property(
    jsonValue,
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 0, max: 3 }),
    (value, maxDepth, maxMembers, spacing) => {
      const text = JSON.stringify(value, null, spacing === 0 ? undefined : ' '.repeat(spacing)).replace(/\n/g, spacing === 3 ? '\r\n' : '\n');
      const verdict = checkJsonLimits(Buffer.from(text), { maxJsonDepth: maxDepth, maxJsonMembers: maxMembers });
      const expected = expectedVerdicts(JSON.parse(text), maxDepth, maxMembers);
      if (!expected.includes(verdict)) throw new Error(`verdict ${verdict}, expected ${expected.join(' or ')} for ${text.slice(0, 200)}`);
    },
  );
}

/** Any bytes (cut JSON, garbage, deep prefixes): a verdict, never a throw, and a body past either limit is never let through. */
function anyBytesGetAVerdict(): fc.IPropertyWithHooks<[Uint8Array, number]> {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 256 }),
    fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"a":', '[{"b":[')).map(([n, open]) => Buffer.from(open.repeat(n))),
    fc.tuple(jsonValue, fc.nat()).map(([v, cut]) => {
      const t = Buffer.from(JSON.stringify(v));
      return t.subarray(0, cut % (t.length + 1));
    }),
  );
  return fc.property(bytes, fc.integer({ min: 1, max: 64 }), (body, maxDepth) => {
    const verdict = checkJsonLimits(body, { maxJsonDepth: maxDepth, maxJsonMembers: 1000 });
    if (verdict !== JSON_WITHIN_LIMITS && verdict !== JSON_TOO_DEEP && verdict !== JSON_TOO_MANY_MEMBERS) throw new Error(`verdict ${String(verdict)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      return;
    }
    const m = measureOfValue(parsed);
    if ((m.depth > maxDepth || m.members > 1000) && verdict === JSON_WITHIN_LIMITS) throw new Error(`let through: depth ${m.depth}, members ${m.members}`);
  });
}

export function jsonLimitsProperties(): FuzzProperty[] {
  return [
    { name: 'json limits: the scan agrees with a walk of JSON.parse on any JSON text', property: jsonLimitsAgreeWithParse() },
    { name: 'json limits: any bytes get a verdict, and nothing past a limit is let through', property: anyBytesGetAVerdict() },
  ];
}
