// What each vendor says when a prompt is longer than the model's context (fault
// `context_length`): the gateway recognises every one of these wordings and fails over to
// another lane instead of retrying the same one.
import type { MockProtocolName } from './protocols/types.js';

export const CONTEXT_LENGTH_MESSAGES: Readonly<Record<MockProtocolName, string>> = Object.freeze({
  openai: "This model's maximum context length is 128000 tokens. However, your messages resulted in 200000 tokens. Please reduce the length of the messages.",
  responses: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
  anthropic: 'prompt is too long: 210000 tokens > 200000 maximum',
  gemini: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
  bedrock: 'Input is too long for requested model.',
  ollama: 'the input length exceeds the context length',
});
