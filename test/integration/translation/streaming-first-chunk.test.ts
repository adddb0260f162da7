// Streams are relayed as they arrive, never buffered whole. A handshake with the mock, no clock:
// the mock sends every piece of a stream but the last and holds it (hold_last=<key>) until the
// client, on its first chunk, releases it (POST /mock/release/<key>). A gateway that relays
// lets the release find the stream still held; one that buffered the whole stream would show
// the client nothing until the mock gave up holding, and the release would find nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { clientFor } from '../../helpers/clients/index.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const PIECES = 20;

const stack = suiteStack({ workers: 2 });

function nextProtocol(p: ProtocolName): ProtocolName {
  return PROTOCOL_NAMES[(PROTOCOL_NAMES.indexOf(p) + 1) % PROTOCOL_NAMES.length]!;
}

describe('the first stream chunk arrives before the upstream finishes', { concurrency: 6 }, () => {
  for (const ingress of PROTOCOL_NAMES) {
    for (const lane of [nextProtocol(ingress), ingress]) {
      it(`${ingress} -> ${lane}${lane === ingress ? ' (passthrough)' : ''}`, async () => {
        const client = clientFor(ingress, stack.gateway.url);
        const key = `first-chunk-${ingress}-${lane}`;
        let released: Promise<Response> | null = null;
        const r = await client.chat({
          model: `pool-${lane}`,
          stream: true,
          messages: [{ role: 'user', text: `Tell me a story. [mock chunks=${PIECES} hold_last=${key}]` }],
          onChunk: () => {
            released ??= fetch(`${stack.mock.url}/mock/release/${key}`, { method: 'POST' });
          },
        });
        assert.equal(r.text, mockText(PIECES));
        assert.ok(released !== null, 'no chunk was seen');
        const answer = await (released as Promise<Response>);
        assert.equal(answer.status, 200, `the first chunk came only after the upstream finished: ${await answer.text()}`);
        assert.ok(r.chunks >= 2, `chunks arrived one by one (${r.chunks} SDK events)`);
      });
    }
  }
});
