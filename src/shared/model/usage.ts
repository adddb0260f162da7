// Small reads over the model's Usage that more than one codec needs.
import type { Usage } from './types.js';

/** What a stream's start knows: the input side of `u` (input and cache), output 0. */
export function inputSide(u: Usage): Usage {
  return { input: u.input, output: 0, cacheRead: u.cacheRead, cacheCreation: u.cacheCreation };
}
