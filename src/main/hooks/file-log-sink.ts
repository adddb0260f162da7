// The file request-log sink: JSON lines appended by the main thread, rotated by size
// (path -> path.1 -> ... -> path.<keep>, the oldest dropped). Records wait in a bounded queue
// while a write is in flight; a record that finds the queue full is shed and counted. Below
// saturation no record is lost across a rotation: rotation happens between writes.
import { Buffer } from 'node:buffer';
import { appendFile, rename, rm, stat } from 'node:fs/promises';

export interface FileSinkOptions {
  path: string;
  maxBytes: number;
  keep: number;
  maxPending: number;
}

export class FileLogSink {
  private pending: string[] = [];
  private writing = false;
  private sizeBytes = -1;
  private idle: Array<() => void> = [];

  constructor(
    readonly options: FileSinkOptions,
    private readonly onDropped: (n: number) => void,
  ) {}

  /** Queue records (each one JSON line); false when it was shed. */
  accept(line: string): boolean {
    if (this.pending.length >= this.options.maxPending) {
      this.onDropped(1);
      return false;
    }
    this.pending.push(line);
    if (!this.writing) void this.drain();
    return true;
  }

  /** Resolves once everything accepted so far is on disk. */
  flushed(): Promise<void> {
    if (!this.writing && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      if (this.sizeBytes < 0)
        this.sizeBytes = await stat(this.options.path).then(
          (s) => s.size,
          () => 0,
        );
      while (this.pending.length > 0) {
        // Lines up to the rotation point go in one write; the rest after rotating.
        let bytes = 0;
        let take = 0;
        for (; take < this.pending.length; take++) {
          const lineBytes = Buffer.byteLength(this.pending[take]!) + 1;
          if (this.sizeBytes + bytes + lineBytes > this.options.maxBytes && this.sizeBytes + bytes > 0) break;
          bytes += lineBytes;
        }
        if (take === 0) {
          await this.rotate();
          continue;
        }
        const batch = this.pending.splice(0, take);
        try {
          await appendFile(this.options.path, `${batch.join('\n')}\n`);
          this.sizeBytes += bytes;
        } catch {
          this.onDropped(batch.length); // the disk refused: these records are lost, and counted
        }
      }
    } finally {
      this.writing = false;
      const waiters = this.idle;
      this.idle = [];
      for (const w of waiters) w();
    }
  }

  private async rotate(): Promise<void> {
    const { path, keep } = this.options;
    await rm(`${path}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) await rename(`${path}.${i}`, `${path}.${i + 1}`).catch(() => undefined);
    await rename(path, `${path}.1`).catch(() => undefined);
    this.sizeBytes = 0;
  }
}
