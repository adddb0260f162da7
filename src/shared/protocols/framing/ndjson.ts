// Newline-delimited JSON (Ollama's stream framing): one JSON value a line.

/** Incremental NDJSON reader: push bytes, `onLine` fires per complete non-empty line. */
export class NdjsonReader {
  private readonly decoder = new TextDecoder();
  private pending = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Uint8Array): void {
    const text = this.pending + this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const line = text.slice(start, nl).trim();
      if (line.length > 0) this.onLine(line);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    // Only the unfinished tail is kept, so a chunk is scanned once, never re-split.
    this.pending = text.slice(start);
  }

  end(): void {
    const line = (this.pending + this.decoder.decode()).trim();
    this.pending = '';
    if (line.length > 0) this.onLine(line);
  }
}
