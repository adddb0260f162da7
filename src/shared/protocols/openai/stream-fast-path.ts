// The fast path for the Chat Completions chunk nearly every stream is made of: one text delta
// of choice 0, no finish reason, no usage, no error. Recognised by its shape, its text read
// without parsing the rest; any other chunk (role, tool calls, finish, usage, an unknown field,
// a second choice) is refused and goes through JSON.parse like before.
import { leadingMembersEnd, plainScalarEnd, plainStringEnd, stringLiteralEnd, holdsAt, readStringLiteral, type StringRead } from '../fast-path/json-scan.js';
import { layoutMissed, literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { eventSides, measureTextRun } from '../fast-path/text-run.js';

/** Members that may precede `choices` in a text-delta chunk (values plain strings, integers or null). */
function leadingKey(key: string): boolean {
  switch (key) {
    case 'id':
    case 'object':
    case 'created':
    case 'model':
    case 'service_tier':
    case 'system_fingerprint':
      return true;
    default:
      return false;
  }
}

/** The one choice, index 0, whose delta is only content (a search key: cannot occur in a checked head). */
const CHOICE_HEAD = '"choices":[{"index":0,"delta":{"content":';
/** What may follow the content string up to the end of the choices array. */
const CHOICE_TAILS = ['},"logprobs":null,"finish_reason":null}]', '},"finish_reason":null}]', '},"finish_reason":null,"logprobs":null}]'];
/** What may follow the choices array up to the end of the chunk. */
const CHUNK_TAILS = ['}', ',"usage":null}'];

/**
 * A lane's text-delta chunk as one sticky pattern: its leading members as the lane writes them
 * (the values of `id` and `created`, which change per stream, as slots), CHOICE_HEAD, a
 * non-empty string, and the ending. Kept in the lane's memo, so a stream's chunks are each
 * one native match, where a comparison of the stream's head (a slice of 13 characters or more
 * compared in place is a call into V8's runtime) and of its ending were two.
 */
export class ChatDeltaLayout {
  /** The chunk with a delta without escapes (its literal is then what JSON.stringify writes). */
  readonly plain: RegExp;
  /** The chunk with any delta (escapes checked by JSON.parse). */
  readonly any: RegExp;
  /** Text deltas the lane's layouts missed (carried from one to the next; layoutMissed). */
  misses = 0;

  /** The sides of a text-delta event for the members last asked for (streams of a lane share them, ids aside). */
  private sidesMembers = '';
  private sides: { head: Buffer; tail: Buffer } | null = null;

  /** A text-delta event with `members` around its literal, as bytes (fast-path/text-run.ts); null when not ASCII. */
  runSides(members: string): { head: Buffer; tail: Buffer } | null {
    if (members !== this.sidesMembers) {
      this.sides = eventSides(`data: ${members}${CHOICE_HEAD}`, `${this.tail}\n\n`);
      this.sidesMembers = members;
    }
    return this.sides;
  }

  constructor(
    members: string,
    readonly tail: string,
  ) {
    const head = `${membersPattern(members)}${literalPattern(CHOICE_HEAD)}`;
    const tailPattern = literalPattern(tail);
    this.plain = new RegExp(`${head}${SLOT_PATTERN.nonEmptyPlainString}${tailPattern}`, 'y');
    this.any = new RegExp(`${head}${SLOT_PATTERN.nonEmptyStringLiteral}${tailPattern}`, 'y');
  }
}

/** The lane's layout, in its memo (null until a stream taught one). */
export interface ChatDeltaLayouts {
  text: ChatDeltaLayout | null;
}

/** Checked leading members (leadingMembersEnd) as a pattern: `id`'s string and `created`'s integer as slots, the rest literal. */
function membersPattern(members: string): string {
  let source = '';
  let literalFrom = 0;
  let i = 1;
  while (i < members.length) {
    const keyEnd = plainStringEnd(members, i);
    const key = members.slice(i + 1, keyEnd - 1);
    const v = keyEnd + 1;
    const isString = members.charCodeAt(v) === 0x22;
    const valueEnd = isString ? plainStringEnd(members, v) : plainScalarEnd(members, v);
    const slot = key === 'id' && isString ? SLOT_PATTERN.plainString : key === 'created' && members.charCodeAt(v) !== 0x6e ? SLOT_PATTERN.integer : null; // n: null stays literal
    if (slot !== null) {
      source += literalPattern(members.slice(literalFrom, v)) + slot;
      literalFrom = valueEnd;
    }
    i = valueEnd + 1; // past the comma
  }
  return source + literalPattern(members.slice(literalFrom));
}

/**
 * Reads text-delta chunks of one stream. Upstreams repeat the same leading members (id,
 * object, created, model...) and the same ending in every chunk: a chunk is matched against
 * the lane's layout (ChatDeltaLayout) when it has one; else the stream's first chunk is
 * checked member by member and later ones compared with it, one comparison before the text
 * and one after it, and the lane learns its layout from it.
 */
export class ChatTextDeltaReader implements StringRead {
  /** The last recognised chunk up to its content string: checked members, then CHOICE_HEAD; or ''. */
  private head = '';
  /** The last recognised chunk after its content string (a known ending), or ''. */
  private tail = '';
  /** `head` without CHOICE_HEAD: the checked members before `"choices"`. */
  private members = '';
  /** The last chunk read: its delta text. */
  text = '';
  /** The last chunk read: its delta as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;
  /** `lineEnd`'s last match was by the layout's `any` pattern only. */
  private escaped = false;
  /** Where `lineEnd` last found no layout match (its text, '' once `read` has seen it). */
  private missedText = '';
  private missedAt = -1;

  /** The sides of the run `textRun` last found (the lane layout's, for this stream's members). */
  runHead: Buffer | null = null;
  runTailBytes: Buffer | null = null;

  constructor(private readonly layouts: ChatDeltaLayouts | null = null) {}

  /**
   * Where a run of two or more text deltas at `bytes[at]` ends (fast-path/text-run.ts), each
   * with the stream's members and the lane layout's ending, as the layout or the stream's head
   * would read it; -1 when there is none. `runHead` and `runTailBytes` are then its sides.
   */
  textRun(bytes: Uint8Array, at: number): number {
    const layout = this.layouts === null ? null : this.layouts.text;
    if (layout === null || this.members.length === 0) return -1;
    const sides = layout.runSides(this.members);
    if (sides === null) return -1;
    this.runHead = sides.head;
    this.runTailBytes = sides.tail;
    return measureTextRun(bytes, at, sides.head, sides.tail);
  }

  /**
   * Reads the chunk `s[start, end)`: true when it is a plain text delta (`text` and `literal`
   * set), false when it needs the full decoder.
   */
  read(s: string, start: number, end: number): boolean {
    const layout = this.layouts === null ? null : this.layouts.text;
    if (layout !== null) {
      // The layout already missed this chunk in `lineEnd`: not matched twice.
      const missed = start === this.missedAt && s === this.missedText;
      this.missedText = '';
      if (!missed && end - start <= PATTERN_MAX_CHARS && this.readByLayout(layout, s, start, end)) return true;
      // A chunk that starts with the stream's members but has no CHOICE_HEAD after them (its
      // finish or usage) is one readByHead refuses: refused here without its search.
      const members = this.members;
      if (members.length > 0 && !holdsAt(s, start + members.length, CHOICE_HEAD) && holdsAt(s, start, members)) return false;
    }
    if (!this.readByHead(s, start, end)) return false;
    // A text delta the layout missed, read the long way: the lane may learn its layout from it.
    if (this.layouts !== null) {
      const misses = layoutMissed(layout);
      if (misses >= 0) {
        const learnt = new ChatDeltaLayout(this.members, this.tail);
        learnt.misses = misses;
        this.layouts.text = learnt;
      }
    }
    return true;
  }

  /**
   * Where the lane's text-delta layout, matched at `s[start]`, ends (-1: it does not match
   * there, or the lane has none): the chunk's end when its line ends there, found without
   * searching for it. `readMatched` then reads it.
   */
  lineEnd(s: string, start: number): number {
    const layout = this.layouts === null ? null : this.layouts.text;
    if (layout === null || s.length - start > PATTERN_MAX_CHARS) return -1;
    let p = layout.plain;
    p.lastIndex = start;
    this.escaped = false;
    if (!p.test(s)) {
      p = layout.any;
      p.lastIndex = start;
      if (!p.test(s)) {
        this.missedText = s;
        this.missedAt = start;
        return -1;
      }
      this.escaped = true;
    }
    return p.lastIndex;
  }

  /** Reads the chunk `s[start, end)` that `lineEnd` matched: false on a bad escape (the full decoder decides). */
  readMatched(s: string, start: number, end: number): boolean {
    return this.readLayoutDelta(this.layouts!.text!, s, start, end, this.escaped);
  }

  /** `s[start, end)` by the lane's layout: its delta read, and the stream's members kept for its finish. */
  private readByLayout(layout: ChatDeltaLayout, s: string, start: number, end: number): boolean {
    let escaped = false;
    let p = layout.plain;
    p.lastIndex = start;
    if (!p.test(s) || p.lastIndex !== end) {
      p = layout.any;
      p.lastIndex = start;
      if (!p.test(s) || p.lastIndex !== end) return false;
      escaped = true;
    }
    return this.readLayoutDelta(layout, s, start, end, escaped);
  }

  /** The delta of `s[start, end)`, which the layout matched (by its `any` pattern only when `escaped`). */
  private readLayoutDelta(layout: ChatDeltaLayout, s: string, start: number, end: number, escaped: boolean): boolean {
    const litEnd = end - layout.tail.length;
    let litStart: number;
    if (!escaped) {
      // Its opening quote is the last quote before its end: found walking back over the
      // delta (a token or a few), where indexOf of a long needle builds its search tables.
      litStart = litEnd - 2;
      while (s.charCodeAt(litStart) !== 0x22) litStart--;
    } else {
      // CHOICE_HEAD cannot occur in the members before it (their strings hold no quote).
      litStart = s.indexOf(CHOICE_HEAD, start) + CHOICE_HEAD.length;
    }
    if (!readStringLiteral(s, litStart, litEnd, escaped, this)) return false;
    // The stream's members, for readFinish and readUsageOnly.
    if (this.members.length === 0) this.members = s.slice(start, litStart - CHOICE_HEAD.length);
    return true;
  }

  /** `s[start, end)` by the stream's own head and ending (learnt from its first chunk). */
  private readByHead(s: string, start: number, end: number): boolean {
    let litStart = start + this.head.length;
    if (this.head.length === 0 || !holdsAt(s, start, this.head)) {
      const data = s.slice(start, end);
      const found = data.indexOf(CHOICE_HEAD);
      if (found < 0 || leadingMembersEnd(data, leadingKey, 'choices') !== found) return false;
      litStart = start + found + CHOICE_HEAD.length;
      this.head = data.slice(0, found + CHOICE_HEAD.length);
      this.members = data.slice(0, found);
    }
    // The literal cannot run past `end`: a raw line feed (or the end of `s`) stops the scan.
    const found = stringLiteralEnd(s, litStart);
    if (found === 0) return false;
    const escaped = found < 0;
    const litEnd = escaped ? -found - 1 : found;
    if (litEnd === litStart + 2) return false; // '' adds nothing: the full decoder decides
    if (this.tail.length === 0 || end - litEnd !== this.tail.length || !holdsAt(s, litEnd, this.tail)) {
      if (!endsChunk(s, litEnd, end)) return false;
      this.tail = s.slice(litEnd, end);
    }
    return readStringLiteral(s, litStart, litEnd, escaped, this);
  }

  /**
   * The finish reason of `s[start, end)` when it is the chunk that only finishes choice 0
   * (an empty delta, a plain finish_reason string, no usage), with the members of the text
   * chunks before it; null when it needs the full decoder.
   */
  readFinish(s: string, start: number, end: number): string | null {
    const members = this.members;
    if (members.length === 0 || !holdsAt(s, start, members)) return null;
    let at = start + members.length;
    if (!holdsAt(s, at, FINISH_HEAD)) return null;
    at += FINISH_HEAD.length;
    const before = holdsAt(s, at, LOGPROBS_NULL) ? LOGPROBS_NULL.length : 0;
    at += before;
    if (!holdsAt(s, at, FINISH_KEY)) return null;
    const reasonEnd = plainStringEnd(s, at + FINISH_KEY.length);
    if (reasonEnd < 0) return null;
    const reason = s.slice(at + FINISH_KEY.length + 1, reasonEnd - 1);
    at = reasonEnd;
    if (before === 0 && holdsAt(s, at, LOGPROBS_NULL)) at += LOGPROBS_NULL.length;
    if (!holdsAt(s, at, '}]')) return null;
    at += 2;
    for (const last of CHUNK_TAILS) if (end === at + last.length && holdsAt(s, at, last)) return reason;
    return null;
  }

  /**
   * The usage value's text of `s[start, end)` when it is the usage-only chunk (`"choices":[]`,
   * then `"usage"` last) with the members of the text chunks before it; null otherwise. The
   * caller parses the value: JSON.parse of the slice also proves it is one value and no more.
   */
  readUsageOnly(s: string, start: number, end: number): string | null {
    const members = this.members;
    if (members.length === 0 || !holdsAt(s, start, members)) return null;
    const at = start + members.length;
    if (!holdsAt(s, at, USAGE_ONLY_HEAD) || s.charCodeAt(end - 1) !== 0x7d) return null;
    return s.slice(at + USAGE_ONLY_HEAD.length, end - 1);
  }
}

/** The finishing chunk's choice up to what may follow its empty delta. */
const FINISH_HEAD = '"choices":[{"index":0,"delta":{}';
const LOGPROBS_NULL = ',"logprobs":null';
const FINISH_KEY = ',"finish_reason":';
/** The usage-only chunk after its members, up to the usage value. */
const USAGE_ONLY_HEAD = '"choices":[],"usage":';

/** True when `s[from, end)` is one of the known null-finish endings. */
function endsChunk(s: string, from: number, end: number): boolean {
  for (const t of CHOICE_TAILS) {
    if (!holdsAt(s, from, t)) continue;
    const tail = from + t.length;
    for (const last of CHUNK_TAILS) if (end === tail + last.length && holdsAt(s, tail, last)) return true;
    return false;
  }
  return false;
}
