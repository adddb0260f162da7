// JSON.parse for texts an upstream writes again and again alike (text-shape.ts): the first is
// parsed and its shape kept; a later text that matches it from end to start has its integers
// and plain strings written into the value parsed the first time, and that value is returned
// instead of a new parse. A text that does not match is parsed and its shape learnt in place of
// the old one; after a run of misses, only now and then (a source whose texts differ every time
// then pays one comparison more than a plain parse). Callers read the value before the next
// call: it may be the same object, rewritten.
import { cutShape, type TextShape } from './text-shape.js';

/** After this many misses in a row, a shape is learnt on one miss in this many. */
export const RELEARN_EVERY = 64;

export abstract class ShapedParse {
  private shape: TextShape | null = null;
  /** `{ data }`: the value parsed when the shape was learnt, rewritten by each match. */
  private holder: { data: unknown } = { data: undefined };
  private misses = 0;

  /** `text` parsed (its JSON as `jsonOf` finds it); throws as JSON.parse does. */
  parse(text: string): unknown {
    if (this.shape !== null && this.shape.matchWhole(text)) {
      this.misses = 0;
      return this.holder.data;
    }
    const data: unknown = JSON.parse(this.jsonOf(text));
    if (this.misses++ < RELEARN_EVERY || this.misses % RELEARN_EVERY === 0) this.learn(text, data);
    return data;
  }

  /** The JSON text inside `text`. */
  protected abstract jsonOf(text: string): string;

  /** Where the JSON value starts in `text` when `text` holds it as one run of its text (what `jsonOf` gives, space aside); else -1. */
  protected abstract valueAt(text: string): number;

  private learn(text: string, data: unknown): void {
    this.shape = null;
    const at = this.valueAt(text);
    if (at < 0) return;
    const holder = { data };
    const shape = cutShape(text, 0, at, holder, 'data');
    if (shape === null) return;
    this.shape = shape;
    this.holder = holder;
  }
}

/** A whole JSON text (an SSE event's data). */
export class JsonShape extends ShapedParse {
  protected jsonOf(text: string): string {
    return text;
  }

  protected valueAt(text: string): number {
    let at = 0;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return at;
      at++;
    }
  }
}

/** How many kinds of text one JsonShapes keeps a shape for (kinds are upstream event types). */
const MAX_KINDS = 16;

/** A lane's JsonShape per kind of text (a stream decoder's event types). */
export class JsonShapes {
  private readonly byKind = new Map<string, JsonShape>();

  /** `text` parsed, by the shape learnt for `kind`. */
  parse(kind: string, text: string): unknown {
    let shape = this.byKind.get(kind);
    if (shape === undefined) {
      if (this.byKind.size >= MAX_KINDS) return JSON.parse(text);
      shape = new JsonShape();
      this.byKind.set(kind, shape);
    }
    return shape.parse(text);
  }
}
