// Decoded stream events as the tests state them: a delta's `literal` (the fast paths' already
// escaped string) is checked to be exactly what JSON.stringify writes for its text, then left
// out, so an expected event list is the same with the fast paths on or off.
import assert from 'node:assert/strict';
import type { StreamEvent } from '../../src/shared/model/types.js';

export function withoutLiterals(events: readonly StreamEvent[]): StreamEvent[] {
  return events.map((e) => {
    if (e.type !== 'text_delta' && e.type !== 'tool_args_delta') return e;
    const { literal, ...rest } = e;
    if (literal !== undefined) assert.equal(literal, JSON.stringify(e.type === 'text_delta' ? e.text : e.json));
    return rest;
  });
}
