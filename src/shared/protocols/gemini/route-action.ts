// Gemini names the model and the method in one path segment: `{model}:generateContent` or
// `{model}:streamGenerateContent`. Any other method is an unknown route (404 in Gemini's shape).
import type { RouteInfo } from '../codec.js';

const GEMINI_ACTIONS: Readonly<Record<string, boolean>> = {
  generateContent: false,
  streamGenerateContent: true,
};

/** `{model}:{action}` as the route info (model decoded, stream from the action); undefined for an unknown action. */
export function geminiRouteInfo(segment: string): RouteInfo | undefined {
  const colon = segment.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const stream = GEMINI_ACTIONS[segment.slice(colon + 1)];
  if (stream === undefined) return undefined;
  return { pathModel: decodeURIComponent(segment.slice(0, colon)), pathStream: stream };
}
