import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { responsesCodec } from '../../../../src/shared/protocols/responses/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { STREAM, STREAM_USAGE } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';
import { completedMessageItemJson, messageItem, outputTextPart, outputTextPartJson } from '../../../../src/shared/protocols/responses/response.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';

const utf8 = new TextEncoder();

function decode(text: string, chunks: number[] = []): StreamEvent[] {
  const dec = responsesCodec.createStreamDecoder();
  const bytes = utf8.encode(text);
  const out: StreamEvent[] = [];
  let at = 0;
  for (const cut of [...chunks, bytes.length]) {
    out.push(...dec.push(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(...dec.finish());
  return withoutLiterals(out);
}

const EXPECTED: StreamEvent[] = [
  { type: 'start', id: 'resp_68af4030592c81938ec0a5fbab4a3e9f', model: 'gpt-5-2025-08-07' },
  { type: 'block_start', index: 0, kind: 'reasoning', family: 'responses' },
  { type: 'reasoning_state', index: 0, itemId: 'rs_68af4031a1' },
  { type: 'block_stop', index: 0 },
  ...textBlock(1, 'Checking ', 'Paris.'),
  ...toolBlock(2, 'call_Q8aZ3k', 'get_weather', '{"city":', '"Paris"}'),
  ...turnEnd('tool_calls', STREAM_USAGE),
];

function frame(ev: Record<string, unknown>): string {
  return `event: ${ev.type as string}\ndata: ${JSON.stringify(ev)}\n\n`;
}
const CREATED = frame({ type: 'response.created', sequence_number: 0, response: { id: 'r1', model: 'm', status: 'in_progress', output: [] } });

describe('responses stream decoder', () => {
  it('decodes a real stream (the reasoning item a reasoning block with its id), whole and split at every offset', () => {
    assert.deepEqual(decode(STREAM), EXPECTED);
    const len = utf8.encode(STREAM).length;
    for (let cut = 0; cut <= len; cut += 3) assert.deepEqual(decode(STREAM, [cut]), EXPECTED, `cut ${cut}`);
  });

  it('takes arguments that come whole in function_call_arguments.done or output_item.done', () => {
    const events = decode(
      CREATED +
        frame({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '' } }) +
        frame({ type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":1}' }) +
        frame({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' } }) +
        frame({ type: 'response.output_item.done', output_index: 1, item: { type: 'function_call', call_id: 'c2', name: 'g', arguments: '{}' } }) +
        frame({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }),
    );
    assert.deepEqual(events, [
      { type: 'start', id: 'r1', model: 'm' },
      ...toolBlock(0, 'c1', 'f', '{"a":1}'),
      ...toolBlock(1, 'c2', 'g', '{}'),
      { type: 'finish', reason: 'length' },
      { type: 'end' },
    ]);
  });

  it('raises response.failed and error events as upstream errors', () => {
    const upstream = (msg: string) => (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && e.message === msg;
    assert.throws(
      () => decode(CREATED + frame({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } })),
      upstream('boom'),
    );
    assert.throws(() => decode(CREATED + frame({ type: 'error', code: 'rate_limit_exceeded', message: 'slow', param: null })), upstream('slow'));
    assert.throws(() => decode(CREATED + frame({ type: 'error', error: { type: 'server_error', message: 'nested' } })), upstream('nested'));
  });

  it('hands out the events before an error, then raises it; a stream cut before response.completed is an error too', () => {
    const dec = responsesCodec.createStreamDecoder();
    const events = dec.push(
      utf8.encode(
        CREATED +
          frame({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }) +
          frame({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'x' }) +
          frame({ type: 'error', code: 'server_error', message: 'gone', param: null }),
      ),
    );
    assert.deepEqual(withoutLiterals(events), [
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'block_start', index: 0, kind: 'text' },
      { type: 'text_delta', index: 0, text: 'x' },
    ]);
    assert.throws(() => dec.finish(), /gone/);
    assert.throws(
      () => decode(CREATED),
      (e: unknown) => e instanceof GatewayError && /before response\.completed/.test(e.message),
    );
  });
});

describe('responses stream encoder', () => {
  it('numbers every event and puts the whole response in response.completed', () => {
    const enc = responsesCodec.createStreamEncoder();
    const text = EXPECTED.map((e) => enc.encode(e)).join('');
    const datas = text
      .split('\n\n')
      .filter(Boolean)
      .map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)));
    assert.deepEqual(
      datas.map((d) => d.sequence_number),
      datas.map((_, i) => i),
    );
    const completed = datas[datas.length - 1];
    assert.equal(completed.type, 'response.completed');
    assert.equal(completed.response.output.length, 3);
    assert.deepEqual(completed.response.output[0], { id: 'rs_68af4031a1', type: 'reasoning', summary: [], encrypted_content: null });
    assert.equal(completed.response.usage.input_tokens, 328);
  });

  it("writes a finished message's part and item from templates with the bytes JSON.stringify gives", () => {
    for (const text of ['', 'Checking Paris.', 'a "quote" \\ back\nslash\t café ☀️ \u2028 \ud83d', '</script>']) {
      const part = outputTextPartJson(JSON.stringify(text));
      assert.equal(part, JSON.stringify(outputTextPart(text)));
      for (const outputIndex of [0, 7, 12])
        assert.equal(completedMessageItemJson(outputIndex, part), JSON.stringify(messageItem(outputIndex, text, 'completed')));
    }
  });

  it('writes the mid-stream error as an `error` event the SDK raises', () => {
    const out = String(responsesCodec.createStreamEncoder().error('upstream_error', 'gone'));
    assert.ok(out.startsWith('event: error\ndata: '));
    const data = JSON.parse(out.slice(out.indexOf('data: ') + 6));
    assert.deepEqual(data, {
      type: 'error',
      sequence_number: 0,
      code: 'upstream_error',
      message: 'gone',
      param: null,
      error: { message: 'gone', type: 'server_error', param: null, code: 'upstream_error' },
    });
  });
});

describe('responses passthrough', () => {
  it('reads usage from response.completed at every split and relays every byte in whole events', () => {
    const bytes = utf8.encode(STREAM);
    for (let cut = 0; cut <= bytes.length; cut += 5) {
      const pt = responsesCodec.createPassthroughStream({});
      const a = bytes.subarray(0, cut);
      const b = bytes.subarray(cut);
      assertRelayedWhole(pt, [a, b]);
      assert.deepEqual(pt.usage(), STREAM_USAGE, `cut ${cut}`);
    }
  });

  it('rewrites only the model', () => {
    const raw = '{"model":"pool","input":"hi","stream":true}';
    assert.equal(responsesCodec.passthroughBody(raw, JSON.parse(raw), 'gpt-5', true), '{"model":"gpt-5","input":"hi","stream":true}');
  });
});
