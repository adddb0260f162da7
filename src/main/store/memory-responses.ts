// The memory store's stored responses: a map in insertion order (the oldest first) and the
// running total of their bytes. Gone with the process, like the rest of the memory store.
import { RESPONSE_EXPIRED_PER_PUT, type ResponseRow, type ResponseTable } from './store.js';
import type { StoredResponse } from '../../shared/responses/stored-response.js';

export class MemoryResponses implements ResponseTable {
  private readonly rows = new Map<string, ResponseRow>();
  private totalBytes = 0;

  write(row: ResponseRow, maxBytes: number, nowMs: number): void {
    let expired = 0;
    for (const old of this.rows.values()) {
      if (expired >= RESPONSE_EXPIRED_PER_PUT) break;
      if (old.expiresAtMs <= nowMs) {
        this.drop(old.id);
        expired++;
      }
    }
    this.drop(row.id);
    this.rows.set(row.id, row);
    this.totalBytes += row.bytes;
    for (const oldest of this.rows.values()) {
      if (this.totalBytes <= maxBytes) break;
      if (oldest.id !== row.id) this.drop(oldest.id);
    }
  }

  read(id: string): StoredResponse | null {
    const row = this.rows.get(id);
    return row === undefined ? null : (JSON.parse(row.json) as StoredResponse);
  }

  remove(id: string, keyId: string): boolean {
    const row = this.rows.get(id);
    if (row === undefined || row.keyId !== keyId) return false;
    this.drop(id);
    return true;
  }

  private drop(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    this.rows.delete(id);
    this.totalBytes -= row.bytes;
  }
}
