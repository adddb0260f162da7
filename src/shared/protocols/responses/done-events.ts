// The three events that close a text part repeat its whole text: response.output_text.done,
// response.content_part.done and response.output_item.done. When every delta of the part was
// read by the fast path without escapes, the text is known already, as the JSON string content
// the deltas carried, and these events are recognised by comparing them with what they must
// be (their shape as OpenAI writes it, that text, an integer and an id scanned in between)
// instead of parsing them. A text built from checked string contents is itself valid string
// content, so an event that matches is valid JSON that JSON.parse would read to the same
// values; anything else (another shape, another text, an escape) is parsed as before.
import { holdsAt, plainStringEnd } from '../fast-path/json-scan.js';
import { integerEnd } from './stream-fast-path.js';

/** What a recognised event is. */
export const enum DoneEvent {
  /** Not recognised: parse it. */
  None,
  /** response.output_text.done (the decoder reads nothing from it). */
  TextDone,
  /** response.content_part.done of the part. */
  PartDone,
  /** response.output_item.done of the part's message item, holding only this part. */
  ItemDone,
}

/** A value between two fixed texts. */
const enum Slot {
  /** A non-negative integer (sequence_number). */
  Integer,
  /** A string without escapes (an item id). */
  PlainString,
  /** The part's text, as its deltas carried it. */
  Text,
}

interface Shape {
  readonly event: DoneEvent;
  /** fixed[0] slot[0] fixed[1] ... slot[n-1] fixed[n] is the whole event. */
  readonly fixed: readonly string[];
  readonly slots: readonly Slot[];
}

/** The text of one part so far, and the shapes of its done events (made when first needed). */
export class TextPartRun {
  outputIndex = NaN;
  contentIndex = NaN;
  /** The deltas' string contents, concatenated (meaningful only while `plain`). */
  text = '';
  /** Every delta of the part came with its literal (no escape). */
  plain = false;
  private shapes: readonly Shape[] | null = null;

  /** A delta of part (outputIndex, contentIndex); `literal` undefined when it held escapes. */
  add(outputIndex: number, contentIndex: number, text: string, literal: string | undefined): void {
    if (outputIndex !== this.outputIndex || contentIndex !== this.contentIndex) {
      this.outputIndex = outputIndex;
      this.contentIndex = contentIndex;
      this.text = '';
      this.plain = true;
      this.shapes = null;
    }
    if (literal === undefined) this.plain = false;
    else if (this.plain) this.text += text;
  }

  /** Which done event of this part `data` is, or DoneEvent.None. */
  read(data: string): DoneEvent {
    if (!this.plain) return DoneEvent.None;
    const shapes = (this.shapes ??= shapesOf(this.outputIndex, this.contentIndex));
    for (const shape of shapes) {
      if (matches(shape, data, this.text)) return shape.event;
    }
    return DoneEvent.None;
  }
}

function shapesOf(outputIndex: number, contentIndex: number): Shape[] {
  const indexes = `,"output_index":${outputIndex},"content_index":${contentIndex}`;
  const part = '{"type":"output_text","annotations":[],"logprobs":[],"text":"';
  return [
    {
      event: DoneEvent.TextDone,
      fixed: ['{"type":"response.output_text.done","sequence_number":', ',"item_id":', `${indexes},"text":"`, '","logprobs":[]}'],
      slots: [Slot.Integer, Slot.PlainString, Slot.Text],
    },
    {
      event: DoneEvent.PartDone,
      fixed: ['{"type":"response.content_part.done","sequence_number":', ',"item_id":', `${indexes},"part":${part}`, '"}}'],
      slots: [Slot.Integer, Slot.PlainString, Slot.Text],
    },
    {
      // Only the item's first part: a message with one part is the common case.
      event: contentIndex === 0 ? DoneEvent.ItemDone : DoneEvent.None,
      fixed: [
        '{"type":"response.output_item.done","sequence_number":', `,"output_index":${outputIndex},"item":{"id":`,
        `,"type":"message","status":"completed","content":[${part}`, '"}],"role":"assistant"}}',
      ],
      slots: [Slot.Integer, Slot.PlainString, Slot.Text],
    },
  ].filter((s) => s.event !== DoneEvent.None);
}

function matches(shape: Shape, data: string, text: string): boolean {
  const { fixed, slots } = shape;
  let at = 0;
  for (let i = 0; i < slots.length; i++) {
    const f = fixed[i]!;
    if (!holdsAt(data, at, f)) return false;
    at += f.length;
    switch (slots[i]!) {
      case Slot.Integer:
        at = integerEnd(data, at);
        break;
      case Slot.PlainString:
        at = plainStringEnd(data, at);
        break;
      case Slot.Text:
        if (!holdsAt(data, at, text)) return false;
        at += text.length;
        break;
    }
    if (at < 0) return false;
  }
  const last = fixed[slots.length]!;
  return data.length - at === last.length && holdsAt(data, at, last);
}
