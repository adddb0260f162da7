// What a worker is started with (worker_threads workerData). The shared buffers are posted
// as they are: a SharedArrayBuffer is shared, not copied.
import type { SharedBuffers } from '../shared/sab/index.js';

export interface WorkerBootData {
  workerId: number;
  shared: SharedBuffers;
  meteringFlushMs: number;
}
