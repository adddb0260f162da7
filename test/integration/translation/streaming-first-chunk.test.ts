// Streams are relayed as they arrive, never buffered whole: with the mock pacing a long stream
// (20 pieces at 20 a second, about a second from first to last), the first chunk reaches the
// SDK long before the stream ends, translated or passed through. Margins are generous: the
// first chunk must come in the first half of the stream's duration.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { clientFor } from '../../helpers/clients/index.js';
import { startStack, type Stack } from '../../helpers/clients/stack.js';

const PIECES = 20;
const PIECES_PER_SEC = 20;
/** The mock spends (PIECES - 1) / rate seconds between its first and last piece. */
const PACED_MS = ((PIECES - 1) * 1000) / PIECES_PER_SEC;

let stack: Stack;

before(async () => {
  stack = await startStack({ workers: 2 });
});

after(async () => {
  await stack?.close();
});

function nextProtocol(p: ProtocolName): ProtocolName {
  return PROTOCOL_NAMES[(PROTOCOL_NAMES.indexOf(p) + 1) % PROTOCOL_NAMES.length]!;
}

describe('the first stream chunk arrives before the upstream finishes', { concurrency: 6 }, () => {
  for (const ingress of PROTOCOL_NAMES) {
    for (const lane of [nextProtocol(ingress), ingress]) {
      it(`${ingress} -> ${lane}${lane === ingress ? ' (passthrough)' : ''}`, async () => {
        const client = clientFor(ingress, stack.gateway.url);
        const startedAt = performance.now();
        let firstAt = 0;
        const r = await client.chat({
          model: `pool-${lane}`,
          stream: true,
          messages: [{ role: 'user', text: `Tell me a story. [mock chunks=${PIECES} tokens_per_sec=${PIECES_PER_SEC}]` }],
          onChunk: () => (firstAt ||= performance.now()),
        });
        const totalMs = performance.now() - startedAt;
        const firstMs = firstAt - startedAt;
        assert.equal(r.text, mockText(PIECES));
        assert.ok(firstAt > 0, 'no chunk was seen');
        assert.ok(totalMs >= PACED_MS * 0.8, `the mock paced the stream (total ${totalMs.toFixed(0)} ms)`);
        assert.ok(firstMs < totalMs / 2, `first chunk at ${firstMs.toFixed(0)} ms of ${totalMs.toFixed(0)} ms`);
        assert.ok(r.chunks >= PIECES / 2, `chunks arrived one by one (${r.chunks} SDK events)`);
      });
    }
  }
});
