// Runs of text deltas, read and written over bytes. When an upstream writes a stream in few
// chunks, most of a chunk is text-delta events of one block back to back, each the stream's
// same head, a string literal and the same tail. A decoder that knows its stream's head and
// tail finds such a run in the chunk's bytes in one call (text-run.wat: 16 bytes compared at a
// time, the literal's end found the same way), and the encoder writes the whole run in one
// more call, each event as its own bytes before and after a delta's literal around the
// upstream's literal. Per event that is a few SIMD compares and three copies, where the string
// path was a sticky match (irregexp compares a byte at a time: 65-85 ns for the 230 bytes of
// an OpenAI chunk), an event object, three strings concatenated, and the tree walked again
// when the socket encodes it (about 260 ns an event in all, bench/translate-cost.ts).
//
// Only literals of printable ASCII without a backslash are taken: their bytes are then what
// JSON.stringify writes for their text, and what the string path would have written. Any other
// event ends the run and goes the string way, as does a run of one event.
import { Buffer } from 'node:buffer';
import type { StreamEvent, TextRunEvent } from '../../model/types.js';
import { WASM_PAGE_BYTES, instantiate, type WasmMemory } from '../wasm-module.js';

const HEAD_AT = 0;
const TAIL_AT = 1024;
const BEFORE_AT = 2048;
const AFTER_AT = 3072;
/** Each of the four texts above fits in its 1024 bytes. */
const RUN_TEXT_MAX_BYTES = 1024;
const INPUT_AT = 4096;
/** measure's first window of a chunk, and how near its end a run must reach to go on in the next. */
const FIRST_WINDOW = 4096;
const WINDOW_SLACK = 1024;

interface RunExports {
  memory: WasmMemory;
  outEnd: { value: number };
  events: { value: number };
  seqAt: { value: number };
  seq: { value: number };
  textAt: { value: number };
  run(p: number, inEnd: number, o: number, oLimit: number, pLen: number, sLen: number, t1Len: number, t2Len: number, write: number, slot: number): number;
}

/** The delta's literal in the bytes an encoder writes for a run's template (no JSON text holds a NUL). */
export const RUN_SLOT = '\u0000';

/** An encoder's bytes before and after a text delta's literal, for one block. */
export interface TextDeltaTemplate {
  before: Buffer;
  after: Buffer;
  /** Both sides are ASCII. */
  ascii: boolean;
  /** > 0: each event's sequence number goes after the first `sequenceAt` bytes of `before` (writeNumberedTextRun). */
  sequenceAt?: number;
}

/** A run written by writeNumberedTextRun: its bytes, how many events it held, and their literals' contents one after another. */
export interface NumberedRun {
  out: string;
  events: number;
  text: string;
}

/**
 * `bytes`, what an encoder writes for a text delta whose literal is RUN_SLOT, cut at the slot;
 * null when the slot is not there exactly once, or a side is too long for the module.
 */
export function deltaTemplate(bytes: string): TextDeltaTemplate | null {
  const at = bytes.indexOf(RUN_SLOT);
  if (at < 0 || bytes.indexOf(RUN_SLOT, at + 1) >= 0) return null;
  const before = Buffer.from(bytes.slice(0, at));
  const after = Buffer.from(bytes.slice(at + 1));
  if (before.length > RUN_TEXT_MAX_BYTES || after.length > RUN_TEXT_MAX_BYTES) return null;
  return { before, after, ascii: before.length === at && after.length === bytes.length - at - 1 };
}

/** A stream's text-delta event around its literal, as bytes: null when a side is not printable ASCII (line feeds aside) or too long. */
export function eventSides(head: string, tail: string): { head: Buffer; tail: Buffer } | null {
  if (head.length > RUN_TEXT_MAX_BYTES || tail.length > RUN_TEXT_MAX_BYTES || !PRINTABLE_OR_LF.test(head) || !PRINTABLE_OR_LF.test(tail)) return null;
  return { head: Buffer.from(head, 'latin1'), tail: Buffer.from(tail, 'latin1') };
}
const PRINTABLE_OR_LF = /^[\x20-\x7e\n]+$/;

/** The module, one instance per thread (its memory is the thread's scratch space). */
class RunModule {
  private readonly exports: RunExports;
  private bytes: Uint8Array;
  /** The module's memory as a Buffer, for its string slices. */
  private view: Buffer;
  /** The texts last copied in (compared by identity: the callers keep theirs). */
  private head: Uint8Array | null = null;
  private tail: Uint8Array | null = null;
  private before: Uint8Array | null = null;
  private after: Uint8Array | null = null;
  /** The chunk and index whose bytes the last measure left at INPUT_AT, and how many. */
  private residentChunk: ArrayBufferLike | null = null;
  private residentAt = -1;
  private residentBytes = 0;
  /** How many events the last numbered write held, and their literals' contents. */
  lastEvents = 0;
  lastText = '';

  constructor() {
    this.exports = instantiate<RunExports>(new URL('./text-run.wasm', import.meta.url));
    this.bytes = new Uint8Array(this.exports.memory.buffer);
    this.view = Buffer.from(this.exports.memory.buffer);
  }

  /** Room for `bytes` bytes from INPUT_AT (growing the memory keeps what it holds). */
  private reserve(bytes: number): void {
    const need = INPUT_AT + bytes;
    const memory = this.exports.memory;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / WASM_PAGE_BYTES));
      this.bytes = new Uint8Array(memory.buffer);
      this.view = Buffer.from(memory.buffer);
    }
  }

  private sides(head: Uint8Array, tail: Uint8Array): void {
    if (head !== this.head) {
      this.bytes.set(head, HEAD_AT);
      this.head = head;
    }
    if (tail !== this.tail) {
      this.bytes.set(tail, TAIL_AT);
      this.tail = tail;
    }
  }

  /**
   * Where the run of events `head "literal" tail` at `bytes[at]` ends (the index after its last
   * event), when it holds two events or more; else -1. With `slot` > 0, each event's head has
   * an integer of its own after the head's first `slot` bytes. The run's bytes stay in the
   * module for `write`, until the next measure.
   */
  measure(bytes: Uint8Array, at: number, head: Uint8Array, tail: Uint8Array, slot: number): number {
    const least = head.length + tail.length + 3 + (slot > 0 ? 1 : 0);
    if (bytes.length - at < 2 * least) return -1;
    this.sides(head, tail);
    // A window of the chunk at a time, each copied after the one before, so that a chunk where
    // runs are short is not copied in whole for each: the next only when the run went on to
    // near this one's end.
    let window = FIRST_WINDOW;
    let p = at;
    let copied = at;
    let events = 0;
    this.residentChunk = null;
    for (;;) {
      const to = Math.min(bytes.length, p + window);
      this.reserve(to - at);
      this.bytes.set(bytes.subarray(copied, to), INPUT_AT + copied - at);
      copied = to;
      const from = INPUT_AT + p - at;
      const stop = p + this.exports.run(from, INPUT_AT + to - at, 0, 0, head.length, tail.length, 0, 0, 0, slot) - from;
      events += this.exports.events.value;
      const cut = to < bytes.length && stop > p && to - stop < WINDOW_SLACK + least;
      p = stop;
      if (!cut) break;
      window *= 2;
    }
    if (events < 2) return -1;
    this.residentChunk = bytes.buffer;
    this.residentAt = bytes.byteOffset + at;
    this.residentBytes = p - at;
    return p;
  }

  /**
   * The run `e` (as `measure` found it) written with `t`; with `sequence` >= 0, its events
   * numbered from it (t.sequenceAt > 0), and lastEvents and lastText set.
   */
  write(e: TextRunEvent, t: TextDeltaTemplate, sequence = -1): string {
    const n = e.bytes.length;
    const numbered = sequence >= 0;
    // At most one event per head, tail and two quotes: each grows by at most before + after
    // (and a number's ten digits).
    const most = n + Math.ceil(n / (e.head.length + e.tail.length + 2)) * (t.before.length + t.after.length + (numbered ? 10 : 0));
    // The literals' contents after the output: fewer bytes than the run's.
    this.reserve(n + most + (numbered ? n : 0));
    this.sides(e.head, e.tail);
    const bytes = this.bytes;
    if (t.before !== this.before) {
      bytes.set(t.before, BEFORE_AT);
      this.before = t.before;
    }
    if (t.after !== this.after) {
      bytes.set(t.after, AFTER_AT);
      this.after = t.after;
    }
    if (e.bytes.buffer !== this.residentChunk || e.bytes.byteOffset !== this.residentAt || n > this.residentBytes) {
      bytes.set(e.bytes, INPUT_AT);
      this.residentChunk = null;
    }
    const out = INPUT_AT + n;
    const x = this.exports;
    x.seqAt.value = numbered ? t.sequenceAt! : 0;
    x.seq.value = numbered ? sequence : 0;
    x.textAt.value = numbered ? out + most : 0;
    const end = x.run(INPUT_AT, out, out, out + most, e.head.length, e.tail.length, t.before.length, t.after.length, 1, e.slot);
    if (end !== out) throw new Error('text run: the module stopped short of a run it had measured');
    // A literal is ASCII, so the output is too when the template is: one byte per character.
    const stop = x.outEnd.value;
    if (numbered) {
      this.lastEvents = x.events.value;
      this.lastText = this.view.toString('latin1', out + most, x.textAt.value);
    }
    return this.view.toString(t.ascii ? 'latin1' : 'utf8', out, stop);
  }
}

let module: RunModule | null = null;

function runModule(): RunModule {
  return (module ??= new RunModule());
}

/** See RunModule.measure. */
export function measureTextRun(bytes: Uint8Array, at: number, head: Uint8Array, tail: Uint8Array, slot = 0): number {
  return runModule().measure(bytes, at, head, tail, slot);
}

/** The run in the encoder's protocol, from its template (textDeltaTemplate): a flat string. */
export function writeTextRun(e: TextRunEvent, t: TextDeltaTemplate): string {
  return runModule().write(e, t);
}

/** The sequence numbers the module writes are below this (an unsigned 32-bit count, kept in i32's positive half). */
export const MAX_RUN_SEQUENCE = 0x7fffffff;

/**
 * The run written from a template whose `before` holds a sequence number (t.sequenceAt), its
 * events numbered from `sequence`: for an encoder that numbers every event (Responses). The
 * caller keeps `sequence + e.bytes.length` under MAX_RUN_SEQUENCE (a run holds fewer events than bytes).
 */
export function writeNumberedTextRun(e: TextRunEvent, t: TextDeltaTemplate, sequence: number): NumberedRun {
  const m = runModule();
  const out = m.write(e, t, sequence);
  return { out, events: m.lastEvents, text: m.lastText };
}

/** The `text_delta` events a run stands for, in order (for an encoder without a template). */
export function runDeltas(e: TextRunEvent): StreamEvent[] {
  const out: StreamEvent[] = [];
  const text = Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength).toString('latin1');
  let at = 0;
  while (at < text.length) {
    let start = at + e.head.length;
    if (e.slot > 0) start += integerLength(text, at + e.slot);
    const end = text.indexOf('"', start + 1) + 1;
    const literal = text.slice(start, end);
    out.push({ type: 'text_delta', index: e.index, text: literal.slice(1, -1), literal });
    at = end + e.tail.length;
  }
  return out;
}

/** The length of the digits at `text[at]` (a run's integer slot: the module checked its form). */
function integerLength(text: string, at: number): number {
  let i = at;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
  return i - at;
}

/**
 * An encoder's templates by block index: `encodeDelta` is its own text-delta case, whose bytes
 * must depend only on the index and the literal while a template is kept (an encoder whose
 * prefix changes at a stream's `start` calls `reset`).
 */
export class TextDeltaTemplates {
  private index = -1;
  private template: TextDeltaTemplate | null = null;

  constructor(private readonly encodeDelta: (e: Extract<StreamEvent, { type: 'text_delta' }>) => string) {}

  for(index: number): TextDeltaTemplate | null {
    if (index !== this.index) {
      this.template = deltaTemplate(this.encodeDelta({ type: 'text_delta', index, text: RUN_SLOT, literal: RUN_SLOT }));
      this.index = index;
    }
    return this.template;
  }

  /** The run in the encoder's bytes: from the template, or delta by delta when there is none. */
  write(e: TextRunEvent): string {
    const t = this.for(e.index);
    if (t !== null) return writeTextRun(e, t);
    let out = '';
    for (const d of runDeltas(e)) out += this.encodeDelta(d as Extract<StreamEvent, { type: 'text_delta' }>);
    return out;
  }

  reset(): void {
    this.index = -1;
    this.template = null;
  }
}
