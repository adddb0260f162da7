// Session affinity by the `affinity` request header: weighted rendezvous hashing. The same
// value prefers the same member for as long as that member is usable; when it is not, the
// value moves to its next-highest member, and comes back when the first recovers. Stateless
// (no table to grow or expire) and the same on every worker of the instance.

/** FNV-1a over the value's UTF-16 units. */
export function affinityHash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The member's rendezvous score for a key hash: higher wins; weight scales the share. */
export function rendezvousScore(keyHash: number, member: number, weight: number): number {
  let h = (keyHash ^ Math.imul(member + 1, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  const unit = ((h >>> 0) + 1) / 4294967297; // (0, 1)
  return -weight / Math.log(unit);
}
