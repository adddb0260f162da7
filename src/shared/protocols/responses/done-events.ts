// The three events that close a text part repeat its whole text: response.output_text.done,
// response.content_part.done and response.output_item.done. When every delta of the part was
// read by the fast path without escapes, the text is known already, as the JSON string content
// the deltas carried, and these events are recognised by comparing them with what they must
// be (their shape as OpenAI writes it, that text, an integer and an id scanned in between)
// instead of parsing them. A text built from checked string contents is itself valid string
// content, so an event that matches is valid JSON that JSON.parse would read to the same
// values; anything else (another shape, another text, an escape) is parsed as before. After a
// run of deltas read over bytes (fast-path/text-run.ts) the text was never made: the events'
// text is then only checked to be plain string content, which keeps them JSON that reads the
// same (the decoder reads nothing of that text).
import { holdsAt, plainStringEnd } from '../fast-path/json-scan.js';
import { SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { integerEnd } from './stream-fast-path.js';

/** What a recognised event is. */
export const enum DoneEvent {
  /** Not recognised: parse it. */
  None,
  /** response.output_text.done (the decoder reads nothing from it). */
  TextDone,
  /** response.content_part.done of the part. */
  PartDone,
  /** response.output_item.done of a message item holding one part, with this part's text. */
  ItemDone,
}

/**
 * One done event's shape: `fixed[0]` sequence_number `fixed[1]` item id `fixed[2]` text
 * `fixed[3]`, the sequence number an integer and the id a string without escapes.
 */
interface Shape {
  readonly event: DoneEvent;
  readonly fixed: readonly [string, string, string, string];
}

/** The text of one part so far, and the shapes of its done events (made when first needed). */
export class TextPartRun {
  outputIndex = NaN;
  contentIndex = NaN;
  /** The deltas' string contents, concatenated (meaningful only while `plain`). */
  text = '';
  /** Every delta of the part came with its literal (no escape). */
  plain = false;
  /**
   * `text` holds every delta's contents. False once a run of deltas was read over bytes
   * (fast-path/text-run.ts), their text never made: the done events' text is then only checked
   * to be plain string content, which is all the decoder needs of it (it reads none of it).
   */
  private known = true;
  private shapes: readonly Shape[] | null = null;

  /** A delta of part (outputIndex, contentIndex); `literal` undefined when it held escapes. */
  add(outputIndex: number, contentIndex: number, text: string, literal: string | undefined): void {
    this.part(outputIndex, contentIndex);
    if (literal === undefined) this.plain = false;
    else if (this.plain && this.known) this.text += text;
  }

  /** A run of deltas of part (outputIndex, contentIndex), each literal plain printable ASCII. */
  addRun(outputIndex: number, contentIndex: number): void {
    this.part(outputIndex, contentIndex);
    this.known = false;
    this.text = '';
  }

  private part(outputIndex: number, contentIndex: number): void {
    if (outputIndex === this.outputIndex && contentIndex === this.contentIndex) return;
    this.outputIndex = outputIndex;
    this.contentIndex = contentIndex;
    this.text = '';
    this.plain = true;
    this.known = true;
    this.shapes = null;
  }

  /** Which done event of this part `data` is, or DoneEvent.None. */
  read(data: string): DoneEvent {
    if (!this.plain) return DoneEvent.None;
    const shapes = (this.shapes ??= shapesOf(this.outputIndex, this.contentIndex));
    const text = this.known ? this.text : null;
    for (const shape of shapes) {
      if (matches(shape, data, text)) return shape.event;
    }
    return DoneEvent.None;
  }
}

function shapesOf(outputIndex: number, contentIndex: number): Shape[] {
  const indexes = `,"output_index":${outputIndex},"content_index":${contentIndex}`;
  const part = '{"type":"output_text","annotations":[],"logprobs":[],"text":"';
  return [
    { event: DoneEvent.TextDone, fixed: ['{"type":"response.output_text.done","sequence_number":', ',"item_id":', `${indexes},"text":"`, '","logprobs":[]}'] },
    { event: DoneEvent.PartDone, fixed: ['{"type":"response.content_part.done","sequence_number":', ',"item_id":', `${indexes},"part":${part}`, '"}}'] },
    {
      // What the decoder does with it depends only on output_index and the item's type.
      event: DoneEvent.ItemDone,
      fixed: [
        '{"type":"response.output_item.done","sequence_number":',
        `,"output_index":${outputIndex},"item":{"id":`,
        `,"type":"message","status":"completed","content":[${part}`,
        '"}],"role":"assistant"}}',
      ],
    },
  ];
}

/**
 * A string's content without escapes or control characters, and its closing quote: irregexp
 * takes a whole text at about 0.6 ns a character, a charCodeAt loop at about 2.5.
 */
const PLAIN_CONTENT = new RegExp(SLOT_PATTERN.plainString.slice(1), 'y'); // the string's pattern after its opening quote

/** `text` null: any plain string content (no escape, no control character) in its place. */
function matches({ fixed }: Shape, data: string, text: string | null): boolean {
  if (!holdsAt(data, 0, fixed[0])) return false;
  let at = integerEnd(data, fixed[0].length);
  if (at < 0 || !holdsAt(data, at, fixed[1])) return false;
  at = plainStringEnd(data, at + fixed[1].length);
  if (at < 0 || !holdsAt(data, at, fixed[2])) return false;
  at += fixed[2].length;
  if (text === null) {
    PLAIN_CONTENT.lastIndex = at;
    if (!PLAIN_CONTENT.test(data)) return false;
    at = PLAIN_CONTENT.lastIndex - 1; // on the closing quote
  } else {
    if (!holdsAt(data, at, text)) return false;
    at += text.length;
  }
  return data.length - at === fixed[3].length && holdsAt(data, at, fixed[3]);
}
