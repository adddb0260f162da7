// The fast paths change no byte of the codecs' own suite: conformance.test.ts runs twice, with
// the fast paths on and forced off (GATEWAY_TRANSLATE_FAST_PATH=off), each run recording what
// the six codecs wrote and read back (CONFORMANCE_RECORD: request and response bodies, stream
// bytes and the events decoded from them, errors, passthrough bytes and usage), and the two
// records must be the same, but for the stamps an encoder takes from its own clock (masked as
// in the translation matrix's identity test, test/integration/translation/fast-path-identity.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { maskClockStamps } from '../../helpers/clock-stamps.js';

const SUITE = join(dirname(fileURLToPath(import.meta.url)), 'conformance.test.js');

type Entry = [what: string, text: string];

/** Runs the suite as a plain script (node:test runs a file's tests itself) and reads its record. */
async function runSuite(dir: string, fastPath: 'on' | 'off'): Promise<Entry[]> {
  const file = join(dir, `record-${fastPath}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_RECORD: file, GATEWAY_TRANSLATE_FAST_PATH: fastPath };
  delete env.NODE_TEST_CONTEXT; // a test of its own, not a subtest of this runner's
  delete env.CONFORMANCE_CODECS; // all six
  const child = spawn(process.execPath, [SUITE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    output += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    output += s;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `the conformance suite with the fast paths ${fastPath} failed:\n${output.slice(-4000)}`);
  return JSON.parse(await readFile(file, 'utf8')) as Entry[];
}

/** The clock's stamps, and the id Ollama's decoders make from the created_at the encoder stamped. */
function masked(text: string): string {
  return maskClockStamps(text).replace(/"id":"ollama-\d+"/g, '"id":"ollama-<clock>"');
}

describe('the conformance suite, fast paths on and forced off', () => {
  let dir = '';
  let on: Entry[] = [];
  let off: Entry[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-fast-path-'));
    [on, off] = await Promise.all([runSuite(dir, 'on'), runSuite(dir, 'off')]);
  });
  after(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it("records every codec's streams, bodies and errors", () => {
    for (const name of PROTOCOL_NAMES) {
      for (const what of ['stream bytes', 'stream events', 'request decoded', 'response', 'passthrough bytes', 'error']) {
        assert.ok(
          on.some(([w]) => w.startsWith(`${name} ${what}`)),
          `${name}: no "${what}" recorded`,
        );
      }
    }
  });

  it('writes and reads the same bytes both ways', () => {
    assert.equal(off.length, on.length, 'as many records both ways');
    for (let i = 0; i < on.length; i++) {
      const [what, text] = on[i]!;
      assert.equal(off[i]![0], what, `record ${i}: the same step`);
      assert.equal(masked(off[i]![1]), masked(text), `record ${i} (${what}): fast path on vs off`);
    }
  });
});
