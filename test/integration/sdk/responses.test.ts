// The `openai` SDK (Responses API) against the real gateway.
import { openaiSdk } from '../../helpers/clients/openai.js';
import { OPENAI_SDK_ERRORS, sdkSuite } from './suite.js';

sdkSuite('responses', {
  call: (url, model, prompt) => openaiSdk(url).responses.create({ model, input: prompt }),
  ...OPENAI_SDK_ERRORS,
});
