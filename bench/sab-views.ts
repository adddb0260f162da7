// Micro-benchmark (not a test): what one shared-memory op costs on a length-tracking typed
// view of a growable SharedArrayBuffer, on a fixed-length view of the same buffer, and through
// SharedViews' xFor(index) helper (a fixed view plus the length check that remakes it on
// growth: what src/shared/sab does now). The ops are the ones a request makes: permits,
// lifetime and latency CAS loops, wide counters, the governance fast path, breaker words,
// histogram bounds, and a mix of them in the proportions of one governed request.
//
//   node dist/bench/sab-views.js [--iterations 2000000] [--rounds 7]
//
// Each (op, variant) pair is compiled from its own source copy (new Function), so V8 keeps
// separate type feedback for each and none turns polymorphic. Variants run interleaved,
// round by round, and the table shows each one's median ns per iteration.
import { parseArgs } from 'node:util';
import { createGrowableBuffer } from '../src/shared/sab/growable-buffer.js';
import { SharedViews } from '../src/shared/sab/shared-views.js';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '2000000' },
    rounds: { type: 'string', default: '7' },
  },
});
const ITERATIONS = Number(values.iterations);
const ROUNDS = Number(values.rounds);
if (!(ITERATIONS > 0 && ROUNDS > 0)) throw new RangeError('--iterations and --rounds must be positive');

// Each body is the inside of `for (let i = 0; i < n; i++)`. `at` is an even word in a small
// spread of records so the loop does not hammer one word only; I32/U32/U64/F64 give the view
// covering an index (a constant array for the raw variants). The body returns nothing useful;
// `sink` keeps results alive.
interface Op {
  name: string;
  what: string;
  body: string;
}

const OPS: Op[] = [
  { name: 'load', what: 'Atomics.load (state, dead flag, cooldown)', body: `sink += Atomics.load(I32(at), at);` },
  { name: 'add', what: 'Atomics.add (gauge, streak)', body: `sink += Atomics.add(I32(at), at, 1);` },
  { name: 'store', what: 'Atomics.store (streak reset, dirty flag)', body: `Atomics.store(I32(at), at, i);` },
  {
    name: 'permit',
    what: 'permit take + give (load, CAS, add; load, store, sub)',
    body: `const a = I32(at + 3); let c = Atomics.load(a, at);
      for (;;) { const s = Atomics.compareExchange(a, at, c, c + 1); if (s === c) break; c = s; }
      Atomics.add(a, at + 3, 1);
      const h = Atomics.load(a, at + 3); Atomics.store(a, at + 3, h - 1); Atomics.sub(a, at, 1);`,
  },
  {
    name: 'ewma-cas',
    what: 'CAS loop on one word (lifetime budget, latency EWMA)',
    body: `const a = I32(at + 1); let r = Atomics.load(a, at + 1);
      for (;;) { const s = Atomics.compareExchange(a, at + 1, r, (r + 7) & 0xffff); if (s === r) break; r = s; }`,
  },
  {
    name: 'wide-add',
    what: 'wide counter add (Uint32 add + carry check)',
    body: `const u = U32(at + 1); const old = Atomics.add(u, at, 1); if (old + 1 >= 0x80000000) { Atomics.store(u, at, 0); }`,
  },
  {
    name: 'wide-read',
    what: 'wide counter read (hi, lo, hi)',
    body: `const u = U32(at + 1); const hi = Atomics.load(u, at + 1); const lo = Atomics.load(u, at); if (Atomics.load(u, at + 1) === hi) sink += lo;`,
  },
  {
    name: 'gov-fast',
    what: 'governance 32-bit reserve (hi, lo, hi, CAS lo)',
    body: `const u = U32(at + 1);
      for (;;) { const hi = Atomics.load(u, at + 1); const lo = Atomics.load(u, at);
        if (Atomics.load(u, at + 1) !== hi) continue;
        if (Atomics.compareExchange(u, at, lo, (lo + 1) & 0xffff) === lo) break; }`,
  },
  {
    name: 'gov-wide',
    what: 'governance 64-bit CAS (BigUint64 load + CAS)',
    body: `const x = at >> 1; const w = U64(x); const v = Atomics.load(w, x); Atomics.compareExchange(w, x, v, v + 1n);`,
  },
  {
    name: 'bounds',
    what: 'histogram bounds scan (4 plain Float64 reads)',
    body: `const x = (at >> 1) + 1; const f = F64(x + 3); let b = 0; while (b < 4 && 2.5 > f[x + b]) b++; sink += b;`,
  },
];

// One governed request's shared-memory work, roughly: lane + group permits taken and given
// back, lifetime budget CAS, 3 governance reserves, 6 wide-counter adds (tallies, counters,
// histogram bucket and sum), 2 breaker state loads, an error-window CAS, the latency EWMA CAS,
// a histogram bounds scan and the key's dirty flag.
const MIX = `{ ${[
  'permit',
  'permit',
  'ewma-cas',
  'gov-fast',
  'gov-fast',
  'gov-fast',
  'wide-add',
  'wide-add',
  'wide-add',
  'wide-add',
  'wide-add',
  'wide-add',
  'load',
  'load',
  'ewma-cas',
  'ewma-cas',
  'bounds',
  'load',
  'store',
]
  .map((name) => `{ ${OPS.find((o) => o.name === name)!.body} }`)
  .join('\n')} }`;
OPS.push({ name: 'request-mix', what: 'one governed request (19 of the above)', body: MIX });

type Accessor<T> = (index: number) => T;
interface Views {
  I32: Accessor<Int32Array>;
  U32: Accessor<Uint32Array>;
  U64: Accessor<BigUint64Array>;
  F64: Accessor<Float64Array>;
}

/** A fresh function per (op, variant): its own feedback, so each stays monomorphic. */
function compile(op: Op, views: Views): (n: number) => number {
  const source = `return function run(n) {
    let sink = 0;
    for (let i = 0; i < n; i++) {
      const at = 2048 + ((i & 15) << 5);
      ${op.body}
    }
    return sink;
  };`;
  const make = new Function('I32', 'U32', 'U64', 'F64', source) as (...a: unknown[]) => (n: number) => number;
  return make(views.I32, views.U32, views.U64, views.F64);
}

const BYTES = 64 * 1024;
const buffer = createGrowableBuffer(BYTES, 1 << 20);

function constant<T>(array: T): Accessor<T> {
  return () => array;
}

const tracking: Views = {
  I32: constant(new Int32Array(buffer)),
  U32: constant(new Uint32Array(buffer)),
  U64: constant(new BigUint64Array(buffer)),
  F64: constant(new Float64Array(buffer)),
};
const fixed: Views = {
  I32: constant(new Int32Array(buffer, 0, BYTES >> 2)),
  U32: constant(new Uint32Array(buffer, 0, BYTES >> 2)),
  U64: constant(new BigUint64Array(buffer, 0, BYTES >> 3)),
  F64: constant(new Float64Array(buffer, 0, BYTES >> 3)),
};
const shared = new SharedViews(buffer);
const helper: Views = {
  I32: (i) => shared.i32For(i),
  U32: (i) => shared.u32For(i),
  U64: (i) => shared.u64For(i),
  F64: (i) => shared.f64For(i),
};
const VARIANTS: [string, Views][] = [
  ['length-tracking', tracking],
  ['fixed', fixed],
  ['SharedViews.xFor', helper],
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const rows: string[][] = [];
for (const op of OPS) {
  const runs = VARIANTS.map(([, views]) => compile(op, views));
  // Warm-up: let every copy reach optimized code before anything is timed.
  for (const run of runs) run(Math.min(ITERATIONS, 200_000));
  const samples: number[][] = runs.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    // Interleave, rotating who goes first, so drift falls on every variant alike.
    for (let k = 0; k < runs.length; k++) {
      const v = (k + r) % runs.length;
      const start = process.hrtime.bigint();
      runs[v]!(ITERATIONS);
      samples[v]!.push(Number(process.hrtime.bigint() - start) / ITERATIONS);
    }
  }
  const ns = samples.map(median);
  rows.push([op.name, ...ns.map((x) => x.toFixed(2)), (ns[0]! / ns[1]!).toFixed(2) + 'x', (ns[0]! / ns[2]!).toFixed(2) + 'x', op.what]);
}

const header = ['op', ...VARIANTS.map(([name]) => `${name} ns`), 'tracking/fixed', 'tracking/xFor', 'one iteration is'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(`node ${process.version}, ${ITERATIONS} iterations x ${ROUNDS} interleaved rounds, median ns per iteration`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
