// Same-protocol Ollama: only `model` is rewritten; usage is read from the done line, and the
// bytes go back unchanged. Only lines that can hold the counts are parsed.
import { isJsonObject } from '../framing/json-field.js';
import { MeteredPassthrough, parsedOrUndefined } from '../framing/metered-passthrough.js';
import { NdjsonReader } from '../framing/ndjson.js';
import { decodeUsage } from './usage.js';

export class OllamaPassthroughStream extends MeteredPassthrough {
  protected readonly reader = new NdjsonReader((line) => this.onLine(line));

  private onLine(line: string): void {
    if (!line.includes('eval_count')) return;
    const obj = parsedOrUndefined(line);
    if (isJsonObject(obj) && obj.done === true) this.latest = decodeUsage(obj);
  }
}
