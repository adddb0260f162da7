// The caller's protocol where the path does not name one (a direct route before its target is
// known, an unknown path), told by the headers each vendor's SDK sends: so a refusal made then
// is still in the caller's own shape, and says nothing about which names exist.
import type { Codec } from '../../../shared/protocols/codec.js';
import { CODECS } from '../../../shared/protocols/index.js';
import { isSigV4 } from '../../auth/credential.js';
import type { IngressRequest } from '../client.js';
import { callerProtocol } from '../../caller-protocol.js';

export function callerCodecOf(req: IngressRequest): Codec {
  if (isSigV4(req.authorization)) return CODECS.bedrock;
  if (req.callerHeaders['anthropic-version'] !== undefined || (req.xApiKey !== '' && req.authorization === '')) return CODECS.anthropic;
  if (req.xGoogApiKey !== '') return CODECS.gemini;
  return CODECS.openai;
}

/**
 * The caller's codec for an answer about a path no route serves (an unknown path, a wrong
 * method, a direct route whose first segment names no provider): the protocol the path names
 * (`/v1beta/...` Gemini, `/model/...` Bedrock, `/api/...` Ollama, `/v1/messages...` Anthropic,
 * `/v1/responses...` Responses), else the one the headers name (caller-protocol.ts).
 */
export function unroutedCodecOf(req: IngressRequest, method: string, path: string): Codec {
  const header = (name: string): string => {
    switch (name) {
      case 'authorization':
        return req.authorization;
      case 'x-api-key':
        return req.xApiKey;
      case 'x-goog-api-key':
        return req.xGoogApiKey;
      default:
        return req.callerHeaders[name] ?? '';
    }
  };
  return CODECS[callerProtocol(method, path, header, req.query)];
}
