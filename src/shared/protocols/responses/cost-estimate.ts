// OpenAI Responses' cost estimate (src/shared/governance/cost-estimate.ts): the output cap is
// max_output_tokens; images and files are `input_image` / `input_file` parts, whose data URLs
// are left out of the text. (Input held upstream by previous_response_id is not in the body:
// the estimate of such a request is low.)
import type { Buffer } from 'node:buffer';
import { countLiteral, memberName, memberOf, positiveInt, scanDataUrls, type BinaryScan, type CostEstimator } from '../../governance/cost-estimate.js';

const INPUT_IMAGE = memberName('input_image');
const INPUT_FILE = memberName('input_file');

export const responsesCostEstimator: CostEstimator = {
  members: ['max_output_tokens'],
  bytesPerToken: 3,
  imageTokens: 1445,
  streamBytesPerToken: 150,
  outputCap(head) {
    return positiveInt(memberOf(head, 'max_output_tokens'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    scanDataUrls(body, scan);
    // The part types are string values ("type": "input_image"): counted as literals.
    const parts = countLiteral(body, INPUT_IMAGE) + countLiteral(body, INPUT_FILE);
    if (parts > scan.parts) scan.parts = parts;
  },
};
