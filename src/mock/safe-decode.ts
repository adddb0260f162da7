// Names in the URL path (a model, a model id) are percent-decoded; a malformed escape is a bad
// request, not a thrown URIError.

/** `decodeURIComponent(text)`, or null when `text` is not valid URL encoding. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
