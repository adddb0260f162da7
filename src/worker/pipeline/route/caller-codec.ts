// The caller's protocol where the path does not name one (a direct route before its target is
// known, an unknown path), told by the headers each vendor's SDK sends: so a refusal made then
// is still in the caller's own shape, and says nothing about which names exist.
import type { Codec } from '../../../shared/protocols/codec.js';
import { CODECS } from '../../../shared/protocols/index.js';
import { isSigV4 } from '../../auth/credential.js';
import type { IngressRequest } from '../client.js';

export function callerCodecOf(req: IngressRequest): Codec {
  if (isSigV4(req.authorization)) return CODECS.bedrock;
  if (req.callerHeaders['anthropic-version'] !== undefined || (req.xApiKey !== '' && req.authorization === '')) return CODECS.anthropic;
  if (req.xGoogApiKey !== '') return CODECS.gemini;
  return CODECS.openai;
}
