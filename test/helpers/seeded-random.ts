// mulberry32: a small seeded generator, so a failing random case can be replayed from its seed
// (an LCG's low bits repeat too soon for `% n`).

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Floats in [0, 1) from `seed`. */
export function seededFloats(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** Integers below n from `seed`. */
export function seededRandom(seed: number): (n: number) => number {
  const next = mulberry32(seed);
  return (n) => next() % n;
}

/**
 * Integers below n from the linear congruential generator the framing and stream tests' random
 * cases were first written with (kept for them: another generator would make other cases).
 */
export function lcgRandom(seed: number): (n: number) => number {
  return (n) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
}
