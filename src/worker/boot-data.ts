// What a worker is started with (worker_threads workerData). The shared buffers are posted
// as they are: a SharedArrayBuffer is shared, not copied.
import type { SharedBuffers } from '../shared/sab/index.js';

export interface WorkerBootData {
  workerId: number;
  shared: SharedBuffers;
  meteringFlushMs: number;
  /**
   * When set, listen on this unix socket instead of the config's `listen` address: the TLS
   * front on the main thread serves the data port and pipes each connection here (main/tls).
   */
  ingressSocket?: string;
}
