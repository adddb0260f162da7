// Images travel in OpenAI bodies (chat `image_url`, responses `input_image`) as one URL string:
// either a real URL or a base64 `data:` URL. The model keeps the two apart.
import type { ImagePart, ProtocolName } from '../../model/types.js';
import { describeSource, isHttpUrl, refusePart } from '../refusal.js';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

export function imageFromUrl(url: string): ImagePart {
  const m = DATA_URL.exec(url);
  return m ? { type: 'image', data: m[2], mediaType: m[1] } : { type: 'image', url };
}

/**
 * The URL string for an image part, or undefined when it has neither a URL nor data. OpenAI
 * fetches http(s) URLs itself; any other scheme (s3://, gs://) is refused for `target`.
 */
export function imageToUrl(part: ImagePart, target: ProtocolName): string | undefined {
  if (part.url !== undefined) {
    if (isHttpUrl(part.url) || part.url.startsWith('data:')) return part.url;
    return refusePart(describeSource('image', part), target, 'OpenAI images are http(s) or data: URLs');
  }
  if (part.data !== undefined) return `data:${part.mediaType ?? 'application/octet-stream'};base64,${part.data}`;
  return undefined;
}
