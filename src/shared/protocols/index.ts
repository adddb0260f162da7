// The registry of the six codecs, by protocol name.
import type { ProtocolName } from '../model/types.js';
import type { Codec } from './codec.js';
import { openaiCodec } from './openai/codec.js';
import { responsesCodec } from './responses/codec.js';
import { anthropicCodec } from './anthropic/codec.js';
import { geminiCodec } from './gemini/codec.js';
import { bedrockCodec } from './bedrock/codec.js';
import { ollamaCodec } from './ollama/codec.js';

export const CODECS: Readonly<Record<ProtocolName, Codec>> = {
  openai: openaiCodec,
  responses: responsesCodec,
  anthropic: anthropicCodec,
  gemini: geminiCodec,
  bedrock: bedrockCodec,
  ollama: ollamaCodec,
};

export type { Codec } from './codec.js';
