// A lane's non-stream usage, read the short way. An upstream writes the usage member of every
// answer alike (the same members in the same order; only the counts change) and ends every
// body with the same members after it (OpenAI's service_tier and system_fingerprint, say). So
// the first body is read the long way (topLevelValueText, then JSON.parse) and its shape kept:
// its text from the usage key to its end (text-shape.ts). A later body whose end matches has its
// counts written into the value parsed the first time, which the codec then decodes as before:
// no search of the body, no parse, no object made (about 1.5 against 0.6 µs for the mock's
// OpenAI completion).
//
// Why a match is the body's last top-level usage member, as JSON.parse would read it: the
// shape was learnt only where lastMemberValueText showed that (json-field.ts), and a match holds
// the same text from the key's quote to the end of the body, the cuts aside, which change no
// structure. A body that does not match is read the long way and its shape learnt in
// place of the old one; after a run of misses only now and then, so a lane whose bodies differ
// every time pays one comparison more than before.
import type { Buffer } from 'node:buffer';
import { lastMemberSpan, topLevelValueText, type ValueSpan } from './json-field.js';
import { cutShape, type TextShape } from './text-shape.js';
import { RELEARN_EVERY } from './shaped-parse.js';

const BACKSLASH = 0x5c;
/** Bytes of a body's tail decoded past a shape's fewest characters: its string slots (service tier, fingerprint) and a character before. */
const TAIL_SLACK_CHARS = 96;

export class UsageShape {
  private shape: TextShape | null = null;
  /** `{ [field]: value }`: the value parsed when the shape was learnt, rewritten by each match. */
  private body: Record<string, unknown> = {};
  private misses = 0;
  private readonly span: ValueSpan = { keyStart: 0, start: 0, end: 0 };

  constructor(private readonly field: string) {}

  /**
   * A body holding only the usage field of the same-protocol body `text`, parsed (what the
   * codec's usageFromResponse reads), or null when `text` has no such field. It may be the
   * object returned before, rewritten: read it before the next call. Throws when the field's
   * value is not JSON (as JSON.parse does).
   */
  read(text: string): Record<string, unknown> | null {
    if (this.shape !== null) {
      const start = this.shape.matchTail(text);
      // The key's quote opens a string unless a backslash escapes it (see lastMemberValueText).
      if (start > 0 && text.charCodeAt(start - 1) !== BACKSLASH) {
        this.misses = 0;
        return this.body;
      }
    }
    if (this.misses++ < RELEARN_EVERY || this.misses % RELEARN_EVERY === 0) {
      const learnt = this.learn(text);
      if (learnt !== null) return learnt;
    }
    const value = topLevelValueText(text, this.field);
    return value === undefined ? null : { [this.field]: JSON.parse(value) as unknown };
  }

  /**
   * read() of a body given as bytes: when a shape is kept, only the body's tail is decoded first
   * (the usage member ends the body: the shape's fewest characters and TAIL_SLACK_CHARS more),
   * and all of it only when the tail holds no match. A match in the tail is the match in the
   * whole: the same characters from the key's quote to the end, the one before the quote in the
   * tail too (a match must start past the tail's first character), and a UTF-8 decode that
   * starts inside a character changes only what comes before the next one.
   */
  readBytes(bytes: Buffer): Record<string, unknown> | null {
    const shape = this.shape;
    if (shape !== null) {
      const window = shape.minChars + TAIL_SLACK_CHARS;
      if (bytes.length > window) {
        const tail = bytes.toString('utf8', bytes.length - window);
        const start = shape.matchTail(tail);
        if (start > 0 && tail.charCodeAt(start - 1) !== BACKSLASH) {
          this.misses = 0;
          return this.body;
        }
      }
    }
    return this.read(bytes.toString('utf8'));
  }

  /** The long way, keeping the shape when the body shows one; null when it cannot be read so. */
  private learn(text: string): Record<string, unknown> | null {
    const span = this.span;
    if (!lastMemberSpan(text, this.field, span)) return null;
    const body: Record<string, unknown> = {};
    body[this.field] = JSON.parse(text.slice(span.start, span.end)) as unknown;
    const shape = cutShape(text, span.keyStart, span.start, body, this.field);
    this.shape = shape;
    if (shape !== null) this.body = body;
    return body;
  }
}
