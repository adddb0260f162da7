// The cost estimator of each protocol (cost-estimate.ts), and the top-level members the request
// path reads of a same-protocol body: the codec's fast path's requestMembers, then the members the
// estimator reads the output cap from. One list per codec, made once, so the member reader
// sees the same array every time (it compares lists by identity).
import type { ProtocolName } from '../model/types.js';
import type { Codec } from '../protocols/codec.js';
import { anthropicCostEstimator } from '../protocols/anthropic/cost-estimate.js';
import { bedrockCostEstimator } from '../protocols/bedrock/cost-estimate.js';
import { geminiCostEstimator } from '../protocols/gemini/cost-estimate.js';
import { ollamaCostEstimator } from '../protocols/ollama/cost-estimate.js';
import { openaiCostEstimator } from '../protocols/openai/cost-estimate.js';
import { responsesCostEstimator } from '../protocols/responses/cost-estimate.js';
import type { CostEstimator } from './cost-estimate.js';
import { fastPathOf } from '../protocols/fast-path/registry.js';

export const COST_ESTIMATORS: Readonly<Record<ProtocolName, CostEstimator>> = {
  openai: openaiCostEstimator,
  responses: responsesCostEstimator,
  anthropic: anthropicCostEstimator,
  gemini: geminiCostEstimator,
  bedrock: bedrockCostEstimator,
  ollama: ollamaCostEstimator,
};

const readLists = new WeakMap<Codec, readonly string[]>();

/** The members a same-protocol request's body is read for: the codec's, then the estimator's. */
export function membersToRead(codec: Codec): readonly string[] | undefined {
  const own = fastPathOf(codec)?.requestMembers;
  if (own === undefined) return undefined;
  let list = readLists.get(codec);
  if (list === undefined) {
    const all = [...own];
    for (const m of COST_ESTIMATORS[codec.name].members) if (!all.includes(m)) all.push(m);
    // Not frozen: V8 reads a frozen array's elements through its generic keyed load, and the
    // members' pass reads this list on every request (readonly in the type is the guard).
    list = all;
    readLists.set(codec, list);
  }
  return list;
}
