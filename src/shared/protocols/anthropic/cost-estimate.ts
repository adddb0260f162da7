// Anthropic Messages' cost estimate (src/shared/governance/cost-estimate.ts): the output cap is
// max_tokens (required by the protocol); images and documents are blocks with a `source`, whose
// base64 `data` is left out of the text.
import type { Buffer } from 'node:buffer';
import { countMembers, memberName, memberOf, positiveInt, scanStringMembers, type BinaryScan, type CostEstimator } from '../../governance/cost-estimate.js';

const SOURCE = memberName('source');
const DATA = memberName('data');

export const anthropicCostEstimator: CostEstimator = {
  members: ['max_tokens'],
  bytesPerToken: 3,
  // (width x height) / 750 for an image scaled to at most about 1.15 megapixels.
  imageTokens: 1600,
  streamBytesPerToken: 100,
  outputCap(head) {
    return positiveInt(memberOf(head, 'max_tokens'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    scanStringMembers(body, DATA, scan);
    const parts = countMembers(body, SOURCE);
    if (parts > scan.parts) scan.parts = parts;
  },
};
