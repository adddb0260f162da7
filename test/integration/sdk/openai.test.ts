// The `openai` SDK (Chat Completions) against the real gateway.
import { openaiSdk } from '../../helpers/clients/openai.js';
import { OPENAI_SDK_ERRORS, sdkSuite } from './suite.js';

sdkSuite('openai', {
  call: (url, model, prompt) => openaiSdk(url).chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] }),
  ...OPENAI_SDK_ERRORS,
});
