// Same-protocol Ollama: only `model` is rewritten; usage is read from the done line, and the
// bytes go back unchanged. Only lines that can hold the counts are parsed.
import type { Usage } from '../../model/types.js';
import type { PassthroughStream } from '../codec.js';
import { isJsonObject, rewriteTopLevelString } from '../framing/json-field.js';
import { NdjsonReader } from '../framing/ndjson.js';
import { decodeUsage } from './usage.js';

/** `body`: what `raw` was parsed into (rewriteTopLevelString finds `model` by it). */
export function passthroughBody(raw: string, body: unknown, upstreamModel: string): string {
  return rewriteTopLevelString(raw, 'model', upstreamModel, body);
}

export class OllamaPassthroughStream implements PassthroughStream {
  private last: Usage | null = null;
  private readonly reader = new NdjsonReader((line) => this.onLine(line));

  push(chunk: Uint8Array): Uint8Array {
    this.reader.push(chunk);
    return chunk;
  }

  end(): string {
    this.reader.end();
    return '';
  }

  usage(): Usage | null {
    return this.last;
  }

  private onLine(line: string): void {
    if (!line.includes('eval_count')) return;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      return; // the caller gets the bytes as they came
    }
    if (isJsonObject(obj) && obj.done === true) this.last = decodeUsage(obj);
  }
}
