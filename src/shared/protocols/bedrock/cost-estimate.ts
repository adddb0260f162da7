// Bedrock Converse's cost estimate (src/shared/governance/cost-estimate.ts): the output cap is
// inferenceConfig.maxTokens; images, documents and videos are blocks whose base64 `bytes` are
// left out of the text.
import type { Buffer } from 'node:buffer';
import { countMembers, memberName, memberOf, positiveInt, scanStringMembers, type BinaryScan, type CostEstimator } from '../../governance/cost-estimate.js';

const BLOCKS = [memberName('image'), memberName('document'), memberName('video')];
const BYTES = memberName('bytes');

export const bedrockCostEstimator: CostEstimator = {
  members: ['inferenceConfig'],
  bytesPerToken: 3,
  imageTokens: 1600,
  streamBytesPerToken: 120,
  outputCap(head) {
    return positiveInt(memberOf(memberOf(head, 'inferenceConfig'), 'maxTokens'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    scanStringMembers(body, BYTES, scan);
    let parts = 0;
    for (const name of BLOCKS) parts += countMembers(body, name);
    if (parts > scan.parts) scan.parts = parts;
  },
};
