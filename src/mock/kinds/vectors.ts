// The mock's deterministic embeddings and token counts, so that tests can assert exactly what
// came back through the gateway (translated or not) without knowing how the mock renders a
// protocol: a text's vector is the same for every protocol, and a count is the words of the
// request's text, whatever protocol carried it.

/** A unit vector of `dims` components seeded by `text` (FNV-1a, then mulberry32), 6 decimals. */
export function mockVector(text: string, dims: number): number[] {
  let seed = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    seed ^= text.charCodeAt(i);
    seed = Math.imul(seed, 0x01000193) >>> 0;
  }
  const raw = new Array<number>(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
    raw[i] = x;
    norm += x * x;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return raw.map((x) => Math.round(x * scale * 1e6) / 1e6);
}

/** Whitespace-separated words over `texts`: the mock's token count. */
export function mockWordCount(texts: readonly string[]): number {
  let words = 0;
  for (const t of texts) {
    const trimmed = t.trim();
    if (trimmed !== '') words += trimmed.split(/\s+/).length;
  }
  return words;
}

/** The keys whose string values (or arrays of strings) are the text of a request, in any protocol. */
const TEXT_KEYS = new Set(['text', 'content', 'input', 'instructions', 'system', 'prompt']);

/**
 * Every text of a request body: string values (and string arrays) under TEXT_KEYS, at any
 * depth. Keys, model names, roles and types are not text.
 */
export function requestTexts(value: unknown, out: string[] = [], key = ''): string[] {
  if (typeof value === 'string') {
    if (TEXT_KEYS.has(key)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) requestTexts(item, out, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) requestTexts(v, out, k);
  }
  return out;
}
