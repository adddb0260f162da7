// Gemini's cost estimate (src/shared/governance/cost-estimate.ts): the output cap is
// generationConfig.maxOutputTokens times candidateCount (either spelling, as the decoder takes);
// images and files are inlineData / fileData parts, whose base64 `data` is left out of the text.
import type { Buffer } from 'node:buffer';
import {
  countMembers,
  memberName,
  memberOf,
  positiveInt,
  scanStringMembers,
  timesChoices,
  type BinaryScan,
  type CostEstimator,
} from '../../governance/cost-estimate.js';

const INLINE_DATA = [memberName('inlineData'), memberName('inline_data'), memberName('fileData'), memberName('file_data')];
const DATA = memberName('data');

export const geminiCostEstimator: CostEstimator = {
  members: ['generationConfig', 'generation_config'],
  bytesPerToken: 3,
  // 258 tokens per 768-pixel tile: five tiles.
  imageTokens: 1290,
  streamBytesPerToken: 120,
  outputCap(head) {
    const config = memberOf(head, 'generationConfig') ?? memberOf(head, 'generation_config');
    const cap = positiveInt(memberOf(config, 'maxOutputTokens') ?? memberOf(config, 'max_output_tokens'));
    return timesChoices(cap, memberOf(config, 'candidateCount') ?? memberOf(config, 'candidate_count'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    scanStringMembers(body, DATA, scan);
    let parts = 0;
    for (const name of INLINE_DATA) parts += countMembers(body, name);
    if (parts > scan.parts) scan.parts = parts;
  },
};
