// Decoded stream events as the tests state them: a delta's `literal` (the fast paths' already
// escaped string) is checked to be exactly what JSON.stringify writes for its text, then left
// out, so an expected event list is the same with the fast paths on or off.
import assert from 'node:assert/strict';
import type { FinishReason, StreamEvent, Usage } from '../../src/shared/model/types.js';

export function withoutLiterals(events: readonly StreamEvent[]): StreamEvent[] {
  return events.map((e) => {
    if (e.type !== 'text_delta' && e.type !== 'tool_args_delta') return e;
    const { literal, ...rest } = e;
    if (literal !== undefined) assert.equal(literal, JSON.stringify(e.type === 'text_delta' ? e.text : e.json));
    return rest;
  });
}

// Builders for expected event lists: one line per block instead of one per event, so a test's
// list reads as the turn it is (text, tool calls, the end) and the shapes are written once.

/** A text block: its start, one delta per piece, its stop. */
export function textBlock(index: number, ...texts: string[]): StreamEvent[] {
  return [
    { type: 'block_start', index, kind: 'text' },
    ...texts.map((text): StreamEvent => ({ type: 'text_delta', index, text })),
    { type: 'block_stop', index },
  ];
}

/** A tool-call block: its start with the call's id and name, one args delta per piece, its stop. */
export function toolBlock(index: number, id: string, name: string, ...json: string[]): StreamEvent[] {
  return [
    { type: 'block_start', index, kind: 'tool_call', id, name },
    ...json.map((j): StreamEvent => ({ type: 'tool_args_delta', index, json: j })),
    { type: 'block_stop', index },
  ];
}

/** A turn's last three events: the finish, the usage, the end. */
export function turnEnd(reason: FinishReason, usage: Usage): StreamEvent[] {
  return [{ type: 'finish', reason }, { type: 'usage', usage }, { type: 'end' }];
}

/** What a sample tool-call turn says: the ids and names vary per protocol, the shape does not. */
export interface ToolCallTurn {
  id: string;
  model: string;
  /** The second text piece ('it up ☀️.' unless given). */
  textTail?: string;
  /** The first call's id ('call_0' unless given). */
  callId?: string;
  /** A second call, get_time with '{}', id 'call_1'. */
  secondCall?: boolean;
  cacheCreation?: number;
}

/**
 * The sample turn the SDK tests replay through a codec: 'Looking ' + the tail as text, a
 * get_weather call for Paris in two pieces (and get_time when asked), tool_calls, and usage
 * 11 in / 7 out / 5 cache read.
 */
export function toolCallTurn(t: ToolCallTurn): StreamEvent[] {
  return [
    { type: 'start', id: t.id, model: t.model },
    ...textBlock(0, 'Looking ', t.textTail ?? 'it up ☀️.'),
    ...toolBlock(1, t.callId ?? 'call_0', 'get_weather', '{"city":', '"Paris"}'),
    ...(t.secondCall === true ? toolBlock(2, 'call_1', 'get_time', '{}') : []),
    ...turnEnd('tool_calls', { input: 11, output: 7, cacheRead: 5, cacheCreation: t.cacheCreation ?? 0 }),
  ];
}
