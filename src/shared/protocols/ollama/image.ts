// Ollama carries images as bare base64 strings, without a media type; the model wants one.
// It is read from the image's own magic bytes (never guessed from context).
const SIGNATURES: ReadonlyArray<readonly [prefix: string, mediaType: string]> = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

export function mediaTypeOfBase64(data: string): string {
  for (const [prefix, mediaType] of SIGNATURES) {
    if (data.startsWith(prefix)) return mediaType;
  }
  return 'application/octet-stream';
}
