// The corpus of the vendors' documented requests (test/fixtures/vendor-requests, at least ten
// a protocol: their API references' and guides' examples, rewritten as fixtures), each sent as
// written to the gateway's route for its protocol, to a pool of every upstream protocol, stream
// and non-stream; the answer is read in the caller's protocol and checked: the text, the tool
// call (the mock calls the first declared tool with {"location":"Paris"}), the JSON of a
// structured-output request, the finish reason and the usage. A fixture with a setting no
// translation carries is answered by a lane of its
// own protocol and refused, naming the setting, by every other (and a stop sequence by a
// Responses lane, which has none: docs/compatibility.md). The listing calls of the
// corpus are answered by the gateway itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { suiteStack } from '../../helpers/clients/stack.js';
import { loadFixtures, readAnswer, requestOf, type Fixture } from './corpus-wire.js';

const CONCURRENCY = 8;
const FIXTURES_MIN = 10;

const stack = suiteStack({ workers: 2 });

async function send(protocol: ProtocolName, fx: Fixture, model: string, stream: boolean): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const wire = requestOf(protocol, fx, model, stream);
  const res = await request(`${stack.gateway.url}${wire.path}`, { method: wire.method, headers: wire.headers, body: wire.body });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), bytes };
}

for (const protocol of PROTOCOL_NAMES) {
  const fixtures = loadFixtures(protocol);

  describe(`corpus: ${protocol} requests`, { concurrency: CONCURRENCY }, () => {
    it(`has at least ${FIXTURES_MIN} documented chat requests`, () => {
      assert.ok(fixtures.filter((f) => f.expect !== 'listing').length >= FIXTURES_MIN, `${fixtures.length} fixtures`);
      for (const f of fixtures) assert.ok(f.source.length > 10, `${f.file} names its source`);
    });

    for (const fx of fixtures) {
      if (fx.expect === 'listing') {
        it(`${fx.file}: answered by the gateway`, async () => {
          const model = `pool-${protocol}`;
          const r = await send(protocol, fx, model, false);
          assert.equal(r.status, 200, r.bytes.toString());
          const text = r.bytes.toString();
          JSON.parse(text);
          if (!fx.path.includes('version')) assert.ok(text.includes(model), `${fx.file} names ${model}: ${text.slice(0, 300)}`);
        });
        continue;
      }
      for (const lane of PROTOCOL_NAMES) {
        for (const stream of [false, true]) {
          it(`${fx.file} -> ${lane} ${stream ? 'stream' : 'non-stream'}`, async () => {
            const r = await send(protocol, fx, `pool-${lane}`, stream);
            const body = r.bytes.toString();
            const refusal = fx.same_protocol_only !== undefined && lane !== protocol ? fx.same_protocol_only : fx.refused_on?.[lane];
            if (refusal !== undefined) {
              assert.equal(r.status, 400, body);
              assert.ok(body.includes(refusal), `the refusal names "${refusal}": ${body}`);
              return;
            }
            assert.equal(r.status, 200, body.slice(0, 500));
            const a = readAnswer(protocol, stream, r.bytes);
            if (fx.expect === 'tool_call') {
              assert.equal(a.toolCalls.length, 1, JSON.stringify(a));
              assert.equal(a.toolCalls[0]!.name, fx.tool);
              assert.deepEqual(a.toolCalls[0]!.arguments, { location: 'Paris' });
              assert.equal(a.finish, 'tool_calls');
            } else if (fx.expect === 'json') {
              // Structured output is translated on every hop; the mock answers JSON the schema takes.
              const parsed: unknown = JSON.parse(a.text);
              assert.ok(typeof parsed === 'object' && parsed !== null, a.text);
              assert.deepEqual(a.toolCalls, []);
              assert.equal(a.finish, 'stop');
              if (stream) assert.ok(a.pieces >= 2, `streamed in pieces: ${a.pieces}`);
            } else {
              assert.equal(a.text, mockText(5));
              assert.deepEqual(a.toolCalls, []);
              assert.equal(a.finish, 'stop');
              if (stream) assert.ok(a.pieces >= 2, `streamed in pieces: ${a.pieces}`);
            }
            assert.deepEqual(a.usage, { input: 12, output: 5 });
          });
        }
      }
    }
  });
}
