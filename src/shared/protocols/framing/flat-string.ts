// A string built with `+` or a template literal is a tree of its pieces (a cons string) until
// something flattens it, and every write to a socket encodes the output string to bytes, which
// walks the tree first. A stream encoder puts the same per-stream prefix (ids, model, indexes)
// before every delta; left as a tree, that prefix is walked again for each of the stream's
// deltas (about 3 µs more per 50-chunk stream than a flat one, bench/translate-cost.ts). So
// such prefixes are flattened once, when they are made.
const ANY = /^/;

/** `s`, flattened in place: V8 flattens the subject of a regular expression (cheaper than a copy). */
export function flattened(s: string): string {
  ANY.test(s);
  return s;
}
