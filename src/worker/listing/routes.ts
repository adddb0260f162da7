// The model-listing GET routes, and which vendor's shape a shared path answers in.
import type { ProtocolName } from '../../shared/model/types.js';

export type ListingKind = 'v1-models' | 'v1-model' | 'gemini-models' | 'gemini-model' | 'ollama-tags' | 'ollama-version';

export interface ListingRoute {
  pattern: string;
  kind: ListingKind;
}

/** GET routes (POST /api/show is in ROUTES: it has a body). */
export const LISTING_ROUTES: readonly ListingRoute[] = [
  { pattern: '/v1/models', kind: 'v1-models' },
  { pattern: '/v1/models/:id', kind: 'v1-model' },
  { pattern: '/v1beta/models', kind: 'gemini-models' },
  { pattern: '/v1beta/models/:model', kind: 'gemini-model' },
  { pattern: '/api/tags', kind: 'ollama-tags' },
  { pattern: '/api/version', kind: 'ollama-version' },
];

/** The headers that tell the callers of `/v1/models` apart. */
export interface V1Caller {
  authorization: string;
  xApiKey: string;
  xGoogApiKey: string;
  anthropicVersion: string;
  query: string;
}

/**
 * `/v1/models` is OpenAI's, Anthropic's and Gemini's (v1) path. Each SDK marks its calls:
 * the Anthropic SDK always sends `anthropic-version` (and its key in `x-api-key`); the Google
 * SDK sends `x-goog-api-key` (or the REST form `?key=`); the OpenAI SDK sends neither, only
 * `Authorization: Bearer`. So: anthropic-version, or x-api-key without a bearer -> Anthropic;
 * x-goog-api-key or ?key= -> Gemini; anything else -> OpenAI.
 */
export function v1Vendor(caller: V1Caller): ProtocolName {
  if (caller.anthropicVersion !== '') return 'anthropic';
  if (caller.xApiKey !== '' && caller.authorization === '') return 'anthropic';
  if (caller.xGoogApiKey !== '') return 'gemini';
  if (caller.query !== '' && new URLSearchParams(caller.query).has('key')) return 'gemini';
  return 'openai';
}
