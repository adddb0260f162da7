// Which codec carries which fast path: looked up once (a route, a lane), never per request.
import type { Codec } from '../codec.js';
import { anthropicCodec, anthropicFastPath } from '../anthropic/codec.js';
import { bedrockCodec, bedrockFastPath } from '../bedrock/codec.js';
import { geminiCodec, geminiFastPath } from '../gemini/codec.js';
import { ollamaCodec, ollamaFastPath } from '../ollama/codec.js';
import { openaiCodec, openaiFastPath } from '../openai/codec.js';
import { responsesCodec, responsesFastPath } from '../responses/codec.js';
import type { CodecFastPath } from './codec-fast-path.js';

const FAST_PATHS = new Map<Codec, CodecFastPath>([
  [openaiCodec, openaiFastPath],
  [responsesCodec, responsesFastPath],
  [anthropicCodec, anthropicFastPath],
  [geminiCodec, geminiFastPath],
  [bedrockCodec, bedrockFastPath],
  [ollamaCodec, ollamaFastPath],
]);

/** The fast path `codec` carries, or undefined (a codec without one: every body parsed whole, every answer read whole). */
export function fastPathOf(codec: Codec): CodecFastPath | undefined {
  return FAST_PATHS.get(codec);
}
