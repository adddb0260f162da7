// Request-log records of this worker's finished requests, batched to the main thread (which
// runs the sinks: nothing is written to disk or the network from a worker). A batch goes when
// it holds BATCH_RECORDS or every FLUSH_MS; past MAX_BUFFERED (main not draining) records are
// shed here too, counted against the sinks' dropped counters.
import type { MessagePort } from 'node:worker_threads';
import { encodeMessage, type RequestLogRecord } from '../../shared/messages.js';

const BATCH_RECORDS = 256;
const FLUSH_MS = 100;

export class RequestLogBuffer {
  private records: RequestLogRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly flushSoon = (): void => {
    this.timer = null;
    this.flush();
  };

  constructor(
    private readonly workerId: number,
    private readonly port: MessagePort,
  ) {}

  push(record: RequestLogRecord): void {
    this.records.push(record);
    if (this.records.length >= BATCH_RECORDS) this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(this.flushSoon, FLUSH_MS);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.records.length === 0) return;
    const records = this.records;
    this.records = [];
    this.port.postMessage(encodeMessage({ t: 'request-logs', workerId: this.workerId, records }));
  }
}
