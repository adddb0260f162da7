// The data-plane workers' young generation is kept at its full size. V8 sizes it to the
// allocation rate: a worker left idle (between bursts, or while other processes had the load)
// comes back to a small young generation, and the burst that follows scavenges it often while
// every in-flight request is still alive, so those objects are promoted, the old generation
// fills with them, and mark-compacts and longer pauses follow until it has grown again. On the
// bench, a gateway idle for the other targets' rows answered its next streams with a p99 of
// 11.5–19.7 ms; with the floor, 4.8–7.3 (docs/decisions.md, "The young generation's floor").
// The floor is V8's own (`--min-semi-space-size`, the default maximum of a 64-bit build), set
// before the first worker starts: a V8 flag is per process, and an isolate reads its heap
// sizes when it is made, so the main thread, started already, keeps its own.
import v8 from 'node:v8';

/** Each semi-space's floor in MiB: 16 is also V8's default ceiling on 64-bit, so it stays put. */
export const YOUNG_GENERATION_SEMI_SPACE_MB = 8;

let floored = false;

/** Sets the floor for every isolate made from now on (data-plane workers, and piscina's). */
export function floorYoungGeneration(): void {
  if (floored) return;
  floored = true;
  v8.setFlagsFromString(`--min-semi-space-size=${YOUNG_GENERATION_SEMI_SPACE_MB}`);
}
