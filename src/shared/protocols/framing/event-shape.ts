// A lane's stream usage event, read the short way (openai/sse-passthrough.ts). An upstream writes
// the event that carries a stream's usage alike every time (Chat Completions' usage-only chunk,
// Responses' response.completed): the same members in the same order, only the id, the counts
// and the like changed. The first one is parsed and its shape kept (text-shape.ts): the whole
// SSE frame, cut at the plain integers and strings of its one data line. A later frame that
// matches it from end to start has those written into the data parsed the first time: no parse.
// A frame that does not match is parsed and its shape learnt instead, as usage-shape.ts does.
import { cutShape, type TextShape } from './text-shape.js';
import { RELEARN_EVERY } from './usage-shape.js';

export class EventShape {
  private shape: TextShape | null = null;
  /** `{ data }`: the data parsed when the shape was learnt, rewritten by each match. */
  private holder: { data: unknown } = { data: undefined };
  private misses = 0;

  /**
   * The data of the SSE frame `frame` (whole), parsed. It may be the object returned before,
   * rewritten: read it before the next call. Throws when the data is not JSON.
   */
  data(frame: string): unknown {
    if (this.shape !== null && this.shape.matchFromEnd(frame) === 0) {
      this.misses = 0;
      return this.holder.data;
    }
    const data: unknown = JSON.parse(eventData(frame));
    if (this.misses++ < RELEARN_EVERY || this.misses % RELEARN_EVERY === 0) this.learn(frame, data);
    return data;
  }

  /** Keeps the frame's shape when its data is one line (then that line's text is the data). */
  private learn(frame: string, data: unknown): void {
    this.shape = null;
    const line = frame.startsWith('data:') ? 0 : frame.indexOf('\ndata:') + 1;
    if (line === 0 && !frame.startsWith('data:')) return;
    if (frame.indexOf('\ndata:', line) !== -1) return; // more data lines: joined, not one text
    let at = line + 5;
    while (frame.charCodeAt(at) === 0x20 || frame.charCodeAt(at) === 0x09) at++;
    const holder = { data };
    const shape = cutShape(frame, 0, at, holder, 'data');
    if (shape === null) return;
    this.shape = shape;
    this.holder = holder;
  }
}

/** The `data:` lines of one SSE frame, joined as the SSE spec joins them. */
export function eventData(frame: string): string {
  let data: string | undefined;
  for (const line of frame.split('\n')) {
    if (!line.startsWith('data:')) continue;
    let value = line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5);
    if (value.endsWith('\r')) value = value.slice(0, -1);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data ?? '';
}
