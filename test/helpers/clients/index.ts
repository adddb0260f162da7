// The six SDK adapters by protocol name, and the conversation pieces the integration tests share.
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { anthropicClient } from './anthropic.js';
import { bedrockClient } from './bedrock.js';
import { geminiClient } from './gemini.js';
import { ollamaClient } from './ollama.js';
import { openaiClient } from './openai.js';
import { responsesClient } from './responses.js';
import type { NormalizedMessage, NormalizedResult, ProtocolClient, ToolSpec } from './types.js';

export type * from './types.js';

const FACTORIES: Readonly<Record<ProtocolName, (gatewayUrl: string) => ProtocolClient>> = {
  openai: openaiClient,
  responses: responsesClient,
  anthropic: anthropicClient,
  gemini: geminiClient,
  bedrock: bedrockClient,
  ollama: ollamaClient,
};

/** The adapter for one ingress protocol, talking to the gateway at `gatewayUrl`. */
export function clientFor(protocol: ProtocolName, gatewayUrl: string): ProtocolClient {
  return FACTORIES[protocol](gatewayUrl);
}

/** The tool every tool test declares (the mock calls the first declared tool with {"location":"Paris"}). */
export const WEATHER_TOOL: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

/** The tool result the round trip feeds back. */
export const WEATHER_RESULT = '{"temperature_c":21,"sky":"clear"}';

/** The messages of the second leg of a tool round trip: the first answer's call, then its result. */
export function toolRoundTrip(question: string, first: NormalizedResult): NormalizedMessage[] {
  const call = first.toolCalls[0];
  if (call === undefined) throw new Error('toolRoundTrip: the first answer has no tool call');
  return [
    { role: 'user', text: question },
    { role: 'assistant', text: first.text === '' ? undefined : first.text, toolCalls: [call] },
    { role: 'tool', toolCallId: call.id, name: call.name, content: WEATHER_RESULT },
  ];
}
