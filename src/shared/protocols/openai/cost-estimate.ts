// OpenAI Chat Completions' cost estimate (src/shared/governance/cost-estimate.ts): the output cap
// is max_completion_tokens (or the older max_tokens) times `n`; images are `image_url` parts,
// whose data URLs (and audio/file data) are left out of the text.
import type { Buffer } from 'node:buffer';
import {
  countMembers,
  memberName,
  memberOf,
  positiveInt,
  scanDataUrls,
  scanStringMembers,
  timesChoices,
  type BinaryScan,
  type CostEstimator,
} from '../../governance/cost-estimate.js';

const IMAGE_URL = memberName('image_url');
const INPUT_AUDIO = memberName('input_audio');
const FILE_DATA = memberName('file_data');
const DATA = memberName('data');

export const openaiCostEstimator: CostEstimator = {
  members: ['max_completion_tokens', 'max_tokens', 'n'],
  bytesPerToken: 3,
  // High detail: scaled into 2048 x 2048, shortest side 768, 512-pixel tiles: at most 8 x 170 + 85.
  imageTokens: 1445,
  streamBytesPerToken: 200,
  outputCap(head) {
    const cap = positiveInt(memberOf(head, 'max_completion_tokens'));
    return timesChoices(cap >= 0 ? cap : positiveInt(memberOf(head, 'max_tokens')), memberOf(head, 'n'));
  },
  scanBinary(body: Buffer, scan: BinaryScan) {
    // Data URLs (image_url, file_data), and input_audio's bare base64 `data`.
    scanDataUrls(body, scan);
    scanStringMembers(body, DATA, scan);
    // An image by URL has no payload but is charged too.
    const parts = countMembers(body, IMAGE_URL) + countMembers(body, INPUT_AUDIO) + countMembers(body, FILE_DATA);
    if (parts > scan.parts) scan.parts = parts;
  },
};
