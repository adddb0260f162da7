// The fast path for the Responses events nearly every stream is made of: an output_text delta
// or a function_call_arguments delta. The first such event a lane sees is checked member by
// member (known keys only, each once, plain values, no whitespace) and remembered as a layout:
// the text that every later delta repeats (type, indexes, logprobs...) and the places of the
// values that change per event or per item (sequence_number, item_id, delta, obfuscation).
// Later deltas, of this stream and the lane's next ones, are checked against the layout in one
// sticky regular expression compiled from it (the fixed texts as literals, each slot as the
// pattern of what its scanner accepts): one native match for the whole event instead of a
// slice compare per fixed text. Anything else returns false and goes through JSON.parse.
import { plainStringEnd, readStringLiteral, stringLiteralEnd, type StringRead } from '../fast-path/json-scan.js';
import { literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { eventSides } from '../fast-path/text-run.js';

/** readStringLiteral's result, copied out at once (one per module: a worker is one thread). */
const read: StringRead = { text: '', literal: undefined };

const TEXT_TYPE = '"response.output_text.delta"';
const ARGS_TYPE = '"response.function_call_arguments.delta"';

/** A value that changes from event to event: what is scanned in its place. */
const enum Slot {
  /** sequence_number: a non-negative integer (its value is not used). */
  Integer,
  /** item_id, obfuscation: a string without escapes (its value is not used). */
  PlainString,
  /** delta: the string read. */
  Delta,
}

/** The members a delta event may have, each a bit (a key may occur once). */
const enum Key {
  Type = 1,
  SequenceNumber = 2,
  ItemId = 4,
  OutputIndex = 8,
  ContentIndex = 16,
  Delta = 32,
  Logprobs = 64,
  Obfuscation = 128,
}

/**
 * A lane's delta events: `fixed[0] slot[0] fixed[1] ... slot[n-1] fixed[n]`, where the fixed
 * texts are repeated byte for byte and the slots are scanned. Only the fixed texts' lengths are
 * kept (the pattern holds the texts): slices of the upstream's text would keep the whole chunk
 * they were cut from alive for as long as the lane.
 */
interface DeltaLayout {
  /** True for output_text deltas, false for function_call_arguments deltas. */
  text: boolean;
  /** output_index and content_index as JSON.parse reads them (0 when absent, as the decoder takes them). */
  outputIndex: number;
  contentIndex: number;
  fixedLengths: number[];
  slots: Slot[];
  /** The whole event: `fixed[0] slot[0] ... fixed[n]`, sticky (matched at `lastIndex`), its delta any string. */
  pattern: RegExp;
  /** The same with a delta without escapes (tried first: its end is then the next quote, not scanned for). */
  plainPattern: RegExp;
  /** Both after the event's SSE lines' start, `event: <type>\ndata: `, as the event reads in the upstream's text. */
  eventPattern: RegExp;
  plainEventPattern: RegExp;
}

/** The lines before a delta's data, by kind (text, arguments), as OpenAI writes them. */
export const TEXT_EVENT_HEAD = 'event: response.output_text.delta\ndata: ';
const ARGS_EVENT_HEAD = 'event: response.function_call_arguments.delta\ndata: ';

/**
 * The layouts a lane's streams are read by, one per kind (text, arguments): kept in the lane's
 * memo, so a stream reads its deltas by the layout earlier streams taught (no item id or other
 * per-stream value is in one), and a new one is learnt when an event does not match it.
 */
export class ResponsesDeltaLayouts {
  text: DeltaLayout | null = null;
  args: DeltaLayout | null = null;
}

/** Reads the delta events of one stream, by its lane's layouts. */
export class ResponsesDeltaReader {
  /** The last event read: true for an output_text delta, false for function_call_arguments. */
  text = true;
  /** The last event read: its output_index and content_index (0 when absent). */
  outputIndex = 0;
  contentIndex = 0;
  /** The last event read: its delta. */
  value = '';
  /** The last event read: its delta as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;
  /** The last event read: where its first integer (the sequence number) starts and ends; -1 when none came before the delta. */
  private integerStart = -1;
  private integerEnd = -1;
  /** The last event read: where its delta's literal starts and ends. */
  private deltaStart = -1;
  private deltaEnd = -1;

  constructor(private readonly layouts: ResponsesDeltaLayouts = new ResponsesDeltaLayouts()) {}

  /**
   * Reads the event data `s[start, end)`: true when it is a delta event with a non-empty delta
   * (fields set as JSON.parse would give them), false when it needs the full decoder.
   */
  read(s: string, start: number, end: number): boolean {
    if (end - start > PATTERN_MAX_CHARS) return false; // see PATTERN_MAX_CHARS
    // The kind read last first: a stream's deltas come in runs of one kind.
    const layouts = this.layouts;
    const same = this.text ? layouts.text : layouts.args;
    if (same !== null && this.match(same, s, start, end)) return true;
    const other = this.text ? layouts.args : layouts.text;
    if (other !== null && this.match(other, s, start, end)) return true;
    const learned = learnLayout(s, start, end);
    if (learned === null) return false;
    if (learned.text) layouts.text = learned;
    else layouts.args = learned;
    return this.match(learned, s, start, end);
  }

  /**
   * The delta event at `s[at]` (its `event:` line), its line ends not yet found: where its
   * data ends when a lane layout matches it there (the delta then read), else -1. The caller
   * checks that the event ends there (sse.ts eventEndsAt) before using what was read.
   */
  lineEnd(s: string, at: number): number {
    if (s.length - at > PATTERN_MAX_CHARS) return -1; // see PATTERN_MAX_CHARS
    const layouts = this.layouts;
    const same = this.text ? layouts.text : layouts.args;
    const end = same === null ? -1 : this.matchEvent(same, s, at);
    if (end >= 0) return end;
    const other = this.text ? layouts.args : layouts.text;
    return other === null ? -1 : this.matchEvent(other, s, at);
  }

  private matchEvent(layout: DeltaLayout, s: string, at: number): number {
    let plain = true;
    let pattern = layout.plainEventPattern;
    pattern.lastIndex = at;
    if (!pattern.test(s)) {
      plain = false;
      pattern = layout.eventPattern;
      pattern.lastIndex = at;
      if (!pattern.test(s)) return -1;
    }
    const end = pattern.lastIndex;
    const start = at + (layout.text ? TEXT_EVENT_HEAD.length : ARGS_EVENT_HEAD.length);
    return this.readMatched(layout, s, start, plain) ? end : -1;
  }

  private match(layout: DeltaLayout, s: string, start: number, end: number): boolean {
    let plain = true;
    let pattern = layout.plainPattern;
    pattern.lastIndex = start;
    if (!pattern.test(s) || pattern.lastIndex !== end) {
      plain = false;
      pattern = layout.pattern;
      pattern.lastIndex = start;
      if (!pattern.test(s) || pattern.lastIndex !== end) return false;
    }
    return this.readMatched(layout, s, start, plain);
  }

  /**
   * The event at `s[start]` is the layout's (its pattern matched, its plain one when `plain`):
   * walk to the delta over the values before it.
   */
  /**
   * The text delta last read, its data `s[start, end)`, as the sides of a run of deltas like it
   * (each with a sequence number of its own, written as the upstream's SSE event with a blank
   * line after it); null when it was not a plain text delta, or a side is not printable ASCII.
   */
  runSides(s: string, start: number, end: number): DeltaRunSides | null {
    if (!this.text || this.literal === undefined) return null;
    const numbered = this.integerStart >= 0;
    const headStart = TEXT_EVENT_HEAD + s.slice(start, numbered ? this.integerStart : this.deltaStart);
    const head = numbered ? headStart + s.slice(this.integerEnd, this.deltaStart) : headStart;
    const sides = eventSides(head, `${s.slice(this.deltaEnd, end)}\n\n`);
    if (sides === null) return null;
    return {
      head: sides.head,
      tail: sides.tail,
      slot: numbered ? headStart.length : 0,
      headStart: sides.head.toString('latin1', 0, headStart.length), // flat: no slice of the chunk kept
      outputIndex: this.outputIndex,
      contentIndex: this.contentIndex,
    };
  }

  private readMatched(layout: DeltaLayout, s: string, start: number, plain: boolean): boolean {
    const { fixedLengths, slots } = layout;
    let at = start;
    this.integerStart = -1;
    for (let i = 0; i < slots.length; i++) {
      at += fixedLengths[i]!;
      const slot = slots[i]!;
      if (slot === Slot.Delta) return this.readDelta(layout, s, at, plain);
      if (slot === Slot.Integer) {
        const from = at;
        at = integerEnd(s, at);
        if (this.integerStart < 0) {
          this.integerStart = from;
          this.integerEnd = at;
        }
        continue;
      }
      // The pattern matched a plain string here (no quote inside): its end is the next quote,
      // found natively rather than checked again character by character.
      at = s.indexOf('"', at + 1) + 1;
    }
    return false; // a layout always has its delta
  }

  /** The delta literal at `at` (the pattern matched it, as a plain string when `plain`): false on a bad escape. */
  private readDelta(layout: DeltaLayout, s: string, at: number, plain: boolean): boolean {
    // A plain string ends at its next quote; any other is scanned (its escapes found).
    const found = plain ? s.indexOf('"', at + 1) + 1 : stringLiteralEnd(s, at);
    const escaped = found < 0;
    this.deltaStart = at;
    this.deltaEnd = escaped ? -found - 1 : found;
    if (!readStringLiteral(s, at, this.deltaEnd, escaped, read)) return false;
    this.value = read.text;
    this.literal = read.literal;
    this.text = layout.text;
    this.outputIndex = layout.outputIndex;
    this.contentIndex = layout.contentIndex;
    return true;
  }
}

/**
 * A text delta as a run's sides (fast-path/text-run.ts): its bytes before and after the
 * literal, the sequence number (if any) cut out of the head at `slot`; the part it is of.
 */
export interface DeltaRunSides {
  head: Uint8Array;
  tail: Uint8Array;
  /** Where the head's integer goes (0: none). */
  slot: number;
  /** The head's text up to the integer (or whole), to tell cheaply whether an event may start a run. */
  headStart: string;
  outputIndex: number;
  contentIndex: number;
}

/** What each slot's scanner accepts, as a pattern (sticky-pattern.ts). */
function slotPattern(slot: Slot): string {
  switch (slot) {
    case Slot.Integer:
      return SLOT_PATTERN.integer;
    case Slot.PlainString:
      return SLOT_PATTERN.plainString;
    case Slot.Delta:
      return SLOT_PATTERN.nonEmptyStringLiteral; // '' adds nothing: the full decoder decides
  }
}

/**
 * Checks `s[start, end)` member by member as a delta event and returns its layout, or null
 * when it is anything else: another type, an unknown or repeated key, whitespace, a value
 * outside the plain subset.
 */
function learnLayout(s: string, start: number, end: number): DeltaLayout | null {
  if (s.charCodeAt(start) !== 0x7b) return null; // {
  const fixed: string[] = [];
  const slots: Slot[] = [];
  let seen = 0;
  let text = true;
  let outputIndex = 0;
  let contentIndex = 0;
  let fixedFrom = start;
  let at = start + 1;
  for (;;) {
    const keyEnd = plainStringEnd(s, at);
    if (keyEnd < 0 || s.charCodeAt(keyEnd) !== 0x3a) return null; // :
    const v = keyEnd + 1;
    let key: Key;
    let slot: Slot | null = null;
    let valueEnd: number;
    switch (s.slice(at + 1, keyEnd - 1)) {
      case 'type':
        key = Key.Type;
        if (s.slice(v, v + TEXT_TYPE.length) === TEXT_TYPE) valueEnd = v + TEXT_TYPE.length;
        else if (s.slice(v, v + ARGS_TYPE.length) === ARGS_TYPE) {
          text = false;
          valueEnd = v + ARGS_TYPE.length;
        } else return null;
        break;
      case 'sequence_number':
        key = Key.SequenceNumber;
        slot = Slot.Integer;
        valueEnd = integerEnd(s, v);
        break;
      case 'item_id':
        // Not read by the decoder for a delta: a slot, so that one layout serves every item.
        key = Key.ItemId;
        slot = Slot.PlainString;
        valueEnd = plainStringEnd(s, v);
        break;
      case 'output_index':
        key = Key.OutputIndex;
        valueEnd = smallIntegerEnd(s, v);
        if (valueEnd > 0) outputIndex = Number(s.slice(v, valueEnd));
        break;
      case 'content_index':
        key = Key.ContentIndex;
        valueEnd = smallIntegerEnd(s, v);
        if (valueEnd > 0) contentIndex = Number(s.slice(v, valueEnd));
        break;
      case 'delta': {
        key = Key.Delta;
        slot = Slot.Delta;
        const found = stringLiteralEnd(s, v); // the read that follows checks the escapes
        valueEnd = found < 0 ? -found - 1 : found;
        break;
      }
      case 'logprobs':
        key = Key.Logprobs;
        valueEnd = s.slice(v, v + 2) === '[]' ? v + 2 : -1;
        break;
      case 'obfuscation':
        key = Key.Obfuscation;
        slot = Slot.PlainString;
        valueEnd = plainStringEnd(s, v);
        break;
      default:
        return null;
    }
    if (valueEnd <= 0 || (seen & key) !== 0) return null;
    seen |= key;
    if (slot !== null) {
      fixed.push(s.slice(fixedFrom, v));
      slots.push(slot);
      fixedFrom = valueEnd;
    }
    const next = s.charCodeAt(valueEnd);
    if (next === 0x2c) {
      // ,
      at = valueEnd + 1;
      continue;
    }
    if (next !== 0x7d || valueEnd + 1 !== end) return null; // } ending the data
    break;
  }
  if ((seen & (Key.Type | Key.Delta)) !== (Key.Type | Key.Delta)) return null;
  fixed.push(s.slice(fixedFrom, end));
  let source = literalPattern(fixed[0]!);
  let plainSource = source;
  for (let i = 0; i < slots.length; i++) {
    const tail = literalPattern(fixed[i + 1]!);
    source += slotPattern(slots[i]!) + tail;
    plainSource += (slots[i] === Slot.Delta ? SLOT_PATTERN.nonEmptyPlainString : slotPattern(slots[i]!)) + tail;
  }
  const eventHead = literalPattern(text ? TEXT_EVENT_HEAD : ARGS_EVENT_HEAD);
  return {
    text,
    outputIndex,
    contentIndex,
    fixedLengths: fixed.map((f) => f.length),
    slots,
    pattern: new RegExp(source, 'y'),
    plainPattern: new RegExp(plainSource, 'y'),
    eventPattern: new RegExp(eventHead + source, 'y'),
    plainEventPattern: new RegExp(eventHead + plainSource, 'y'),
  };
}

/** End of a non-negative JSON integer (no leading zero, no fraction or exponent) at `at`; -1 otherwise. */
export function integerEnd(s: string, at: number): number {
  const first = s.charCodeAt(at);
  if (first === 0x30) return at + 1;
  if (!(first >= 0x31 && first <= 0x39)) return -1; // NaN past the end too
  let i = at + 1;
  for (;;) {
    const c = s.charCodeAt(i);
    if (!(c >= 0x30 && c <= 0x39)) return i; // written so that NaN (past the end) stops too
    i++;
  }
}

/** As integerEnd, for at most 9 digits (read exactly by Number as by JSON.parse); -1 otherwise. */
function smallIntegerEnd(s: string, at: number): number {
  const e = integerEnd(s, at);
  return e - at > 9 ? -1 : e;
}
