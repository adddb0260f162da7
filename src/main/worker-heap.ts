// The data-plane workers' young generation has a floor. V8 sizes it to the allocation rate, and
// after a few seconds of little allocation its memory reducer shrinks it: a worker left idle
// (between bursts, or while other processes had the load) meets the next burst with a small
// young generation, scavenged so often that the objects of every request in flight survive
// twice and are promoted; the old generation fills with them, and longer pauses follow until
// the young generation has grown again. On the bench, a gateway idle through the other targets'
// rows answered its next streams with a p99 of 11.5–19.7 ms, and about 5–7 with a floor
// (docs/decisions/176-young-generation-floor.md). The floor is V8's own
// (`--min-semi-space-size`), set before the first worker starts: a V8 flag is per process and an
// isolate reads its heap sizes when it is made, so the main thread, made already, keeps its own.
import v8 from 'node:v8';

/**
 * Each semi-space's floor in MiB (the young generation is two of them). 16 halved the streams'
 * p99 too, but V8 then let the young generation grow to twice that, and the streams cost 6–9%
 * more CPU (a nursery past the caches); 8 kept the p99 and cost nothing measurable.
 */
export const YOUNG_GENERATION_SEMI_SPACE_MB = 8;

let floored = false;

/** Sets the floor for every isolate made from now on (data-plane workers, and piscina's). */
export function floorYoungGeneration(): void {
  if (floored) return;
  floored = true;
  v8.setFlagsFromString(`--min-semi-space-size=${YOUNG_GENERATION_SEMI_SPACE_MB}`);
}
