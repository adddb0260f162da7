// The done events of a text part are recognised without parsing only when they are valid JSON
// that the decoder would act on the same way: checked on known shapes, on seeded random
// mutations against JSON.parse, and through the decoder for an event that is not JSON.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DoneEvent, TextPartRun } from '../../../../src/shared/protocols/responses/done-events.js';
import { ResponsesStreamDecoder } from '../../../../src/shared/protocols/responses/stream-decoder.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';

const PART = (t: string): string => `{"type":"output_text","annotations":[],"logprobs":[],"text":${t}}`;
const TEXT_DONE = (t: string, o = 0, c = 0): string =>
  `{"type":"response.output_text.done","sequence_number":7,"item_id":"msg_1","output_index":${o},"content_index":${c},"text":${t},"logprobs":[]}`;
const PART_DONE = (t: string, o = 0, c = 0): string =>
  `{"type":"response.content_part.done","sequence_number":8,"item_id":"msg_1","output_index":${o},"content_index":${c},"part":${PART(t)}}`;
const ITEM_DONE = (t: string, o = 0): string =>
  `{"type":"response.output_item.done","sequence_number":9,"output_index":${o},"item":{"id":"msg_1","type":"message","status":"completed","content":[${PART(t)}],"role":"assistant"}}`;

/** A run whose deltas were "Hello" and " world", read without escapes. */
function helloRun(): TextPartRun {
  const run = new TextPartRun();
  run.add(0, 0, 'Hello', '"Hello"');
  run.add(0, 0, ' world', '" world"');
  return run;
}

describe('text part done events', () => {
  it("recognises the three events that repeat the deltas' text", () => {
    const run = helloRun();
    assert.equal(run.read(TEXT_DONE('"Hello world"')), DoneEvent.TextDone);
    assert.equal(run.read(PART_DONE('"Hello world"')), DoneEvent.PartDone);
    assert.equal(run.read(ITEM_DONE('"Hello world"')), DoneEvent.ItemDone);
  });

  it('leaves any other event to JSON.parse', () => {
    const run = helloRun();
    assert.equal(run.read(TEXT_DONE('"Hello there"')), DoneEvent.None);
    assert.equal(run.read(TEXT_DONE('"Hello world"', 0, 1)), DoneEvent.None);
    assert.equal(run.read(PART_DONE('"Hello world"', 1, 0)), DoneEvent.None);
    assert.equal(run.read(ITEM_DONE('"Hello world"', 1)), DoneEvent.None);
    assert.equal(run.read(TEXT_DONE('"Hello world"').replace('[]}', '[}')), DoneEvent.None);
    assert.equal(run.read(`${TEXT_DONE('"Hello world"')} `), DoneEvent.None);
    assert.equal(run.read(ITEM_DONE('"Hello world"').replace('"message"', '"function_call"')), DoneEvent.None);
    assert.equal(run.read('{"type":"response.completed","sequence_number":9,"response":{}}'), DoneEvent.None);
    // A delta with an escape: the text is no longer known as its literal.
    run.add(0, 0, '"', undefined);
    assert.equal(run.read(TEXT_DONE('"Hello world\\""')), DoneEvent.None);
    // A later part (content_index 1): its part event is recognised with its indexes, and a
    // message item holding one part with its text ends the item as a parsed one would (the
    // decoder reads only the item's output_index and type).
    const second = new TextPartRun();
    second.add(0, 1, 'x', '"x"');
    assert.equal(second.read(PART_DONE('"x"', 0, 1)), DoneEvent.PartDone);
    assert.equal(second.read(PART_DONE('"x"', 0, 0)), DoneEvent.None);
    assert.equal(second.read(ITEM_DONE('"x"')), DoneEvent.ItemDone);
  });

  it('recognises only valid JSON of the type and indexes it reports (property)', () => {
    const events = [TEXT_DONE('"Hello world"'), PART_DONE('"Hello world"'), ITEM_DONE('"Hello world"')];
    const types = {
      [DoneEvent.TextDone]: 'response.output_text.done',
      [DoneEvent.PartDone]: 'response.content_part.done',
      [DoneEvent.ItemDone]: 'response.output_item.done',
    };
    const mutation = fc.record({
      event: fc.nat({ max: 2 }),
      at: fc.nat({ max: 400 }),
      cut: fc.nat({ max: 3 }),
      insert: fc.constantFrom('', ' ', '"', '\\', '}', '1', ',', 'x', '\n', 'é'),
    });
    fc.assert(
      fc.property(mutation, ({ event, at, cut, insert }) => {
        const base = events[event]!;
        const i = at % (base.length + 1);
        const data = base.slice(0, i) + insert + base.slice(i + cut);
        const done = helloRun().read(data);
        if (done === DoneEvent.None) return;
        const parsed = JSON.parse(data) as { type: string; output_index: number; content_index?: number; item?: { type: string } };
        assert.equal(parsed.type, types[done]);
        assert.equal(parsed.output_index, 0);
        if (done !== DoneEvent.ItemDone) assert.equal(parsed.content_index, 0);
        else assert.equal(parsed.item!.type, 'message');
      }),
      { numRuns: 3000 },
    );
  });

  it('a done event that is not JSON fails the stream as before', () => {
    const rsp = (data: string): string => `data: ${data}\n\n`;
    const stream =
      rsp('{"type":"response.created","sequence_number":0,"response":{"id":"r","model":"m","status":"in_progress","output":[]}}') +
      rsp('{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hello","logprobs":[]}') +
      rsp(TEXT_DONE('"Hello"').replace('[]}', '[}'));
    const decoder = new ResponsesStreamDecoder();
    assert.throws(() => {
      const events: StreamEvent[] = [...decoder.push(Buffer.from(stream))];
      events.push(...decoder.finish());
    }, /not JSON/);
  });
});
