// CPU per translated stream, without a network: `node dist/bench/translate-cost.js [--chunks 50]
// [--chunking whole|event] [--rounds 3]`. For each of the 30 (lane, ingress) pairs, the mock's
// own rendering of a stream in the lane's protocol goes through the lane codec's stream decoder
// and the ingress codec's stream encoder, in a loop; the figure is process CPU (user + system)
// per stream, the output made bytes as the relay and uWS make them. Each round runs once with
// the fast paths on and once with them forced off (GATEWAY_TRANSLATE_FAST_PATH=off, a child
// process each, interleaved), so the table shows what the fast paths save per pair. The translation's JavaScript only: no sockets, no uWS, no undici.
//
// `--instructions lane>ingress[,...]` counts instructions instead, under valgrind's callgrind
// (`none` as the ingress: the lane's decoder alone): a child runs 1,000 streams to warm up, then
// N; the count with N = 1,000 is taken from the count with N = 3,000, over 2,000 streams. Node
// runs --single-threaded (no compiler or GC thread), so the figure repeats to about 0.5% from
// run to run whatever else the machine does: for a change too small to see through the noise
// of a shared machine's timing. A count is not a time (a call into V8's runtime is few
// instructions and many cycles); report both where both can be had.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mockUsage, mockChunks } from '../src/mock/content.js';
import { MOCK_PROTOCOLS } from '../src/mock/protocols/index.js';
import { PROTOCOLS, type BenchProtocol } from './request-bodies.js';
import type { LaneMemo, StreamEncoder } from '../src/shared/protocols/codec.js';
import type { StreamEvent } from '../src/shared/model/types.js';

interface Options {
  chunks: number;
  chunking: 'whole' | 'event';
}

/** One lane's stream as the mock writes it: the whole body, or one buffer per event. */
function upstreamChunks(lane: BenchProtocol, o: Options): Buffer[] {
  const parts = MOCK_PROTOCOLS[lane].renderStream({
    model: 'mock-model',
    toolName: null,
    pieces: mockChunks(o.chunks),
    usage: mockUsage(12, 0, o.chunks),
    includeUsage: lane === 'openai',
    usageOnLast: false,
  });
  const all = [parts.head, ...parts.pieces, parts.tail].map((p) => Buffer.from(p)).filter((b) => b.length > 0);
  return o.chunking === 'event' ? all : [Buffer.concat(all)];
}

const slab = Buffer.allocUnsafe(1 << 20);

/**
 * One upstream chunk's events encoded and made bytes as the relay writes them: text framings
 * concatenated into one string, which uWS encodes to UTF-8 (as `write` does here), a binary
 * framing's frames gathered.
 */
function written(encoder: StreamEncoder, events: readonly StreamEvent[]): number {
  let text = '';
  let bytes = 0;
  for (const e of events) {
    const out = encoder.encode(e);
    if (typeof out === 'string') text += out;
    else bytes += out.length;
  }
  return text.length > 0 ? bytes + slab.write(text, 0) : bytes;
}

/** One stream of `chunks` through the lane's decoder and (unless null) the ingress's encoder. */
async function streamRunner(lane: BenchProtocol, ingress: BenchProtocol | null, chunks: readonly Buffer[], memo: LaneMemo): Promise<() => number> {
  const { CODECS } = await import('../src/shared/protocols/index.js');
  return () => {
    const decoder = CODECS[lane].createStreamDecoder(memo);
    const encoder = ingress === null ? null : CODECS[ingress].createStreamEncoder();
    if (encoder?.textDeltaTemplate !== undefined) decoder.emitTextRuns?.(); // as the relay asks
    let bytes = 0;
    for (const c of chunks) {
      const events = decoder.push(c);
      bytes += encoder === null ? events.length : written(encoder, events);
    }
    const events = decoder.finish();
    return bytes + (encoder === null ? events.length : written(encoder, events));
  };
}

const COUNT_WARM_UP = 1000;
const COUNT_LOW = 1000;
const COUNT_HIGH = 3000;

/** `lane>ingress` (ingress `none`: the decoder alone), checked. */
function parsePair(pair: string): [BenchProtocol, BenchProtocol | null] {
  const [lane, ingress] = pair.split('>') as [BenchProtocol, string | undefined];
  const known = (p: string | undefined): p is BenchProtocol => PROTOCOLS.includes(p as BenchProtocol);
  if (!known(lane) || (ingress !== 'none' && (!known(ingress) || ingress === lane))) {
    throw new Error(`--instructions: "${pair}" is not lane>ingress over ${PROTOCOLS.join(', ')} (or lane>none)`);
  }
  return [lane, ingress === 'none' ? null : ingress];
}

/** The child under callgrind: warm-up, then `streams` streams of the pair, nothing printed. */
async function countHere(pair: string, streams: number, o: Options): Promise<void> {
  const [lane, ingress] = parsePair(pair);
  const run = await streamRunner(lane, ingress, upstreamChunks(lane, o), {
    usageEvent: null,
    eventShapes: null,
    responsesDeltas: null,
    chatDeltas: null,
    geminiText: null,
  });
  for (let i = 0; i < COUNT_WARM_UP + streams; i++) run();
}

/** Instructions of the whole child process, as callgrind counts them. */
function instructions(self: string, pair: string, streams: number, o: Options): number {
  const child = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      self,
      '--count-child',
      pair,
      '--streams',
      String(streams),
      '--chunks',
      String(o.chunks),
      '--chunking',
      o.chunking,
    ],
    { encoding: 'utf8' },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(child.stderr ?? '');
  if (child.error !== undefined || child.status !== 0 || refs === null) {
    throw new Error(`valgrind (Debian's valgrind package) did not count ${pair}: ${child.error?.message ?? child.stderr}`);
  }
  return Number(refs[1]!.replaceAll(',', ''));
}

function countInstructions(self: string, pairs: string[], o: Options): void {
  const lines = [
    `# Instructions per ${o.chunks}-chunk stream (callgrind, node --single-threaded; ${COUNT_HIGH - COUNT_LOW} streams after ${COUNT_WARM_UP + COUNT_LOW}), fast paths as set`,
    '',
    '| lane > ingress | instructions per stream |',
    '|---|---:|',
  ];
  for (const pair of pairs) {
    parsePair(pair);
    const low = instructions(self, pair, COUNT_LOW, o);
    const high = instructions(self, pair, COUNT_HIGH, o);
    const perStream = Math.round((high - low) / (COUNT_HIGH - COUNT_LOW));
    process.stderr.write(`translate-cost: ${pair} counted\n`);
    lines.push(`| ${pair} | ${perStream.toLocaleString('en-US')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** µs of CPU per stream for each pair, in this process (the switch is read once at start). */
async function measureHere(o: Options): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const lane of PROTOCOLS) {
    const chunks = upstreamChunks(lane, o);
    for (const ingress of PROTOCOLS) {
      if (ingress === lane) continue;
      // A lane's memo, kept across its streams as the worker keeps it (learnt event shapes).
      const memo: LaneMemo = { usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null };
      const run = await streamRunner(lane, ingress, chunks, memo);
      // Warm-up long enough for the pair's code to be optimised: with 300 runs the first pair
      // of each lane still paid for its JIT (5-20 µs more than the next).
      for (let i = 0; i < 3000; i++) run();
      const n = 1500;
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) run();
      const used = process.cpuUsage(before);
      out[`${lane}>${ingress}`] = (used.user + used.system) / n;
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      chunks: { type: 'string', default: '50' },
      chunking: { type: 'string', default: 'whole' },
      rounds: { type: 'string', default: '3' },
      child: { type: 'boolean', default: false },
      instructions: { type: 'string' },
      'count-child': { type: 'string' },
      streams: { type: 'string', default: '0' },
    },
  });
  const o: Options = { chunks: Number(values.chunks), chunking: values.chunking === 'event' ? 'event' : 'whole' };
  if (values.child) {
    process.stdout.write(JSON.stringify(await measureHere(o)));
    return;
  }
  if (values['count-child'] !== undefined) return countHere(values['count-child'], Number(values.streams), o);
  const self = fileURLToPath(import.meta.url);
  if (values.instructions !== undefined) return countInstructions(self, values.instructions.split(','), o);
  const on: Record<string, number[]> = {};
  const off: Record<string, number[]> = {};
  const rounds = Number(values.rounds);
  for (let r = 0; r < rounds; r++) {
    for (const fast of r % 2 === 0 ? [true, false] : [false, true]) {
      const child = spawnSync(process.execPath, [self, '--child', '--chunks', String(o.chunks), '--chunking', o.chunking], {
        encoding: 'utf8',
        env: { ...process.env, GATEWAY_TRANSLATE_FAST_PATH: fast ? 'on' : 'off' },
      });
      if (child.status !== 0) throw new Error(child.stderr);
      const got = JSON.parse(child.stdout) as Record<string, number>;
      for (const [k, v] of Object.entries(got)) ((fast ? on : off)[k] ??= []).push(v);
      process.stderr.write(`translate-cost: round ${r + 1}/${rounds}, fast path ${fast ? 'on' : 'off'} done\n`);
    }
  }
  const lines = [
    `# CPU µs per ${o.chunks}-chunk translated stream (${o.chunking === 'event' ? 'one upstream chunk per event' : 'the whole stream in one upstream chunk'}), median of ${rounds} rounds: fast paths on / off`,
    '',
    `| lane \\ ingress | ${PROTOCOLS.join(' | ')} |`,
    `|---|${PROTOCOLS.map(() => '---:').join('|')}|`,
  ];
  for (const lane of PROTOCOLS) {
    const cells = PROTOCOLS.map((ingress) =>
      ingress === lane ? '·' : `${median(on[`${lane}>${ingress}`]!).toFixed(0)} / ${median(off[`${lane}>${ingress}`]!).toFixed(0)}`,
    );
    lines.push(`| ${lane} | ${cells.join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
