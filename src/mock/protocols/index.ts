// The six protocols the mock plays, by name.
import { anthropicProtocol } from './anthropic.js';
import { bedrockProtocol } from './bedrock.js';
import { geminiProtocol } from './gemini.js';
import { ollamaProtocol } from './ollama.js';
import { openaiProtocol } from './openai.js';
import { responsesProtocol } from './responses.js';
import type { MockProtocol, MockProtocolName } from './types.js';

export const MOCK_PROTOCOLS: Readonly<Record<MockProtocolName, MockProtocol>> = {
  openai: openaiProtocol,
  responses: responsesProtocol,
  anthropic: anthropicProtocol,
  gemini: geminiProtocol,
  bedrock: bedrockProtocol,
  ollama: ollamaProtocol,
};

export type { MockProtocol, MockProtocolName } from './types.js';
