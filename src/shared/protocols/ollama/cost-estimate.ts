// Ollama's cost estimate (src/shared/governance/cost-estimate.ts): the output cap is
// options.num_predict when positive (-1 and -2 mean no limit); images are the bare base64
// strings of each message's `images`, left out of the text.
import type { Buffer } from 'node:buffer';
import { memberName, memberOf, positiveInt, scanStringArrays, type BinaryScan, type CostEstimator } from '../../governance/cost-estimate.js';

const IMAGES = memberName('images');

export const ollamaCostEstimator: CostEstimator = {
  members: ['options'],
  bytesPerToken: 3,
  imageTokens: 1600,
  streamBytesPerToken: 100,
  outputCap(head) {
    return positiveInt(memberOf(memberOf(head, 'options'), 'num_predict'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    scanStringArrays(body, IMAGES, scan);
  },
};
