// A lane's id in the governance counters: FNV-1a (32-bit) of the lane name, never 0 (0 marks a
// free lane slot). A hash rather than an index so every thread, and a restart with lanes added
// or removed, agree on it without a table; two lane names colliding would share a price
// (odds about 1 in 4 billion per pair, accepted).
const ids = new Map<string, number>();

function fnv1a(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/** The id of lane `name` (cached: the settle path asks once per request). */
export function laneId(name: string): number {
  let id = ids.get(name);
  if (id === undefined) {
    id = fnv1a(name);
    ids.set(name, id);
  }
  return id;
}
