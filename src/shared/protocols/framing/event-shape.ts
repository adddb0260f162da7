// A lane's stream usage event, read the short way (openai/sse-passthrough.ts). An upstream writes
// the event that carries a stream's usage alike every time (Chat Completions' usage-only chunk,
// Responses' response.completed): the same members in the same order, only the id, the counts
// and the like changed. So the whole SSE frame is the shape (shaped-parse.ts), cut at the plain
// integers and strings of its one data line; a frame whose data spans several lines is parsed.
import { ShapedParse } from './shaped-parse.js';

/** `parse(frame)`: the data of the SSE frame `frame` (whole), parsed. */
export class EventShape extends ShapedParse {
  protected jsonOf(frame: string): string {
    return eventData(frame);
  }

  /** The data's start when the frame has one data line (that line's text is then the data). */
  protected valueAt(frame: string): number {
    const line = frame.startsWith('data:') ? 0 : frame.indexOf('\ndata:') + 1;
    if (line === 0 && !frame.startsWith('data:')) return -1;
    if (frame.indexOf('\ndata:', line) !== -1) return -1; // more data lines: joined, not one text
    let at = line + 5;
    while (frame.charCodeAt(at) === 0x20 || frame.charCodeAt(at) === 0x09) at++;
    return at;
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
