// CPU per translated stream, without a network: `node dist/bench/translate-cost.js [--chunks 50]
// [--chunking whole|event] [--rounds 3]`. For each of the 30 (lane, ingress) pairs, the mock's
// own rendering of a stream in the lane's protocol goes through the lane codec's stream decoder
// and the ingress codec's stream encoder, in a loop; the figure is process CPU (user + system)
// per stream, the output made bytes as the relay and uWS make them. Each round runs once with
// the fast paths on and once with them forced off (GATEWAY_TRANSLATE_FAST_PATH=off, a child
// process each, interleaved), so the table shows what the fast paths save per pair. The translation's JavaScript only: no sockets, no uWS, no undici.
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
    model: 'mock-model', toolName: null, pieces: mockChunks(o.chunks), usage: mockUsage(12, 0, o.chunks), includeUsage: lane === 'openai', usageOnLast: false,
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

/** µs of CPU per stream for each pair, in this process (the switch is read once at start). */
async function measureHere(o: Options): Promise<Record<string, number>> {
  const { CODECS } = await import('../src/shared/protocols/index.js');
  const out: Record<string, number> = {};
  for (const lane of PROTOCOLS) {
    const chunks = upstreamChunks(lane, o);
    for (const ingress of PROTOCOLS) {
      if (ingress === lane) continue;
      // A lane's memo, kept across its streams as the worker keeps it (learnt event shapes).
      const memo: LaneMemo = { usageEvent: null, eventShapes: null, responsesDeltas: null };
      const run = (): number => {
        const decoder = CODECS[lane].createStreamDecoder(memo);
        const encoder = CODECS[ingress].createStreamEncoder();
        let bytes = 0;
        for (const c of chunks) bytes += written(encoder, decoder.push(c));
        return bytes + written(encoder, decoder.finish());
      };
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
    options: { chunks: { type: 'string', default: '50' }, chunking: { type: 'string', default: 'whole' }, rounds: { type: 'string', default: '3' }, child: { type: 'boolean', default: false } },
  });
  const o: Options = { chunks: Number(values.chunks), chunking: values.chunking === 'event' ? 'event' : 'whole' };
  if (values.child) {
    process.stdout.write(JSON.stringify(await measureHere(o)));
    return;
  }
  const self = fileURLToPath(import.meta.url);
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
    const cells = PROTOCOLS.map((ingress) => (ingress === lane ? '·' : `${median(on[`${lane}>${ingress}`]!).toFixed(0)} / ${median(off[`${lane}>${ingress}`]!).toFixed(0)}`));
    lines.push(`| ${lane} | ${cells.join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
