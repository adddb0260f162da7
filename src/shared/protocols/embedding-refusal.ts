// What an embedding request holds that a target protocol cannot honour, refused rather than
// dropped (as refusal.ts does for chat): Gemini's taskType and titles change the vector and no
// other protocol has them; OpenAI token-id inputs are only OpenAI's; a part the request had
// that the model cannot carry (an image to embed...) only its own protocol could take.
import type { EmbeddingRequest } from '../model/embeddings.js';
import type { ProtocolName } from '../model/types.js';
import { refuseParameter, refusePart } from './refusal.js';

/** Each encoder calls this with the features it has (`has`), before writing anything. */
export function refuseEmbeddingFeatures(req: EmbeddingRequest, target: ProtocolName, has: { taskType: boolean; titles: boolean; tokens: boolean }): void {
  if (req.untranslatable !== undefined && req.untranslatable.length > 0) {
    refusePart(`"${req.untranslatable[0]!}"`, target, 'the gateway embeds text only across protocols');
  }
  if (!has.taskType && req.taskType !== undefined) {
    refuseParameter(`taskType=${req.taskType}`, target, 'it changes the vector and only Gemini has it');
  }
  if (!has.titles && req.titles !== undefined && req.titles.some((t) => t !== undefined)) {
    refuseParameter('title', target, 'it changes the vector and only Gemini has it');
  }
  if (!has.tokens && req.inputs.some((i) => i.type === 'tokens')) {
    refuseParameter('input as token ids', target, "token ids are the OpenAI tokenizer's; send the text");
  }
}

/** The texts of a request whose inputs were all checked to be text. */
export function inputTexts(req: EmbeddingRequest): string[] {
  return req.inputs.map((i) => (i.type === 'text' ? i.text : ''));
}
