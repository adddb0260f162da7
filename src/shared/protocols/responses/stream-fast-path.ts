// The fast path for the Responses events nearly every stream is made of: an output_text delta
// or a function_call_arguments delta. The first such event of an item is checked member by
// member (known keys only, each once, plain values, no whitespace) and remembered as a layout:
// the text that every later delta of the item repeats (type, item_id, indexes, logprobs...)
// and the places of the values that change per event (sequence_number, delta, obfuscation).
// Later deltas are compared with the layout a slice at a time and only the changing values are
// scanned. Anything else returns false and goes through JSON.parse.
import { plainStringEnd, readStringLiteral, stringLiteralEnd, type StringRead } from '../fast-path/json-scan.js';

/** readStringLiteral's result, copied out at once (one per module: a worker is one thread). */
const read: StringRead = { text: '', literal: undefined };

const TEXT_TYPE = '"response.output_text.delta"';
const ARGS_TYPE = '"response.function_call_arguments.delta"';

/** A value that changes from event to event: what is scanned in its place. */
const enum Slot {
  /** sequence_number: a non-negative integer (its value is not used). */
  Integer,
  /** obfuscation: a string without escapes (its value is not used). */
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
 * One item's delta events: `fixed[0] slot[0] fixed[1] ... slot[n-1] fixed[n]`, where the fixed
 * texts are repeated byte for byte and the slots are scanned.
 */
interface DeltaLayout {
  /** True for output_text deltas, false for function_call_arguments deltas. */
  text: boolean;
  /** output_index and content_index as JSON.parse reads them (0 when absent, as the decoder takes them). */
  outputIndex: number;
  contentIndex: number;
  fixed: string[];
  slots: Slot[];
}

/**
 * Reads the delta events of one stream. A layout is kept per kind (text, arguments), so a
 * stream that goes from text to a tool call learns each once per item.
 */
export class ResponsesDeltaReader {
  private textLayout: DeltaLayout | null = null;
  private argsLayout: DeltaLayout | null = null;
  /** The last event read: true for an output_text delta, false for function_call_arguments. */
  text = true;
  /** The last event read: its output_index and content_index (0 when absent). */
  outputIndex = 0;
  contentIndex = 0;
  /** The last event read: its delta. */
  value = '';
  /** The last event read: its delta as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;

  /**
   * Reads the event data `s[start, end)`: true when it is a delta event with a non-empty delta
   * (fields set as JSON.parse would give them), false when it needs the full decoder.
   */
  read(s: string, start: number, end: number): boolean {
    // The kind read last first: a stream's deltas come in runs of one kind.
    const same = this.text ? this.textLayout : this.argsLayout;
    if (same !== null && this.match(same, s, start, end)) return true;
    const other = this.text ? this.argsLayout : this.textLayout;
    if (other !== null && this.match(other, s, start, end)) return true;
    const learned = learnLayout(s, start, end);
    if (learned === null) return false;
    if (learned.text) this.textLayout = learned;
    else this.argsLayout = learned;
    return this.match(learned, s, start, end);
  }

  private match(layout: DeltaLayout, s: string, start: number, end: number): boolean {
    const { fixed, slots } = layout;
    let at = start;
    let litStart = -1;
    let litEnd = -1;
    let escaped = false;
    for (let i = 0; i < slots.length; i++) {
      const f = fixed[i]!;
      if (s.slice(at, at + f.length) !== f) return false;
      at += f.length;
      switch (slots[i]!) {
        case Slot.Integer:
          at = integerEnd(s, at);
          break;
        case Slot.PlainString:
          at = plainStringEnd(s, at);
          break;
        case Slot.Delta: {
          // The literal cannot run past `end`: a raw line feed (or the end of `s`) stops the scan.
          const found = stringLiteralEnd(s, at);
          if (found === 0) return false;
          escaped = found < 0;
          litStart = at;
          litEnd = at = escaped ? -found - 1 : found;
          if (litEnd === litStart + 2) return false; // '' adds nothing: the full decoder decides
          break;
        }
      }
      if (at < 0) return false;
    }
    const last = fixed[slots.length]!;
    if (end - at !== last.length || s.slice(at, end) !== last) return false;
    if (!readStringLiteral(s, litStart, litEnd, escaped, read)) return false; // a bad escape
    this.value = read.text;
    this.literal = read.literal;
    this.text = layout.text;
    this.outputIndex = layout.outputIndex;
    this.contentIndex = layout.contentIndex;
    return true;
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
        key = Key.ItemId;
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
    if (next === 0x2c) { // ,
      at = valueEnd + 1;
      continue;
    }
    if (next !== 0x7d || valueEnd + 1 !== end) return null; // } ending the data
    break;
  }
  if ((seen & (Key.Type | Key.Delta)) !== (Key.Type | Key.Delta)) return null;
  fixed.push(s.slice(fixedFrom, end));
  return { text, outputIndex, contentIndex, fixed, slots };
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
