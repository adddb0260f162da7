// `upstream_credentials: passthrough`: the caller's own credential is forwarded upstream in
// place of the provider's. These are the headers in which the vendor SDKs send an API key:
//   authorization   `Bearer <key>` (OpenAI, Responses, Ollama, and the others' bearer form)
//   x-api-key       Anthropic
//   x-goog-api-key  Gemini
//   api-key         Azure OpenAI
// A SigV4 `authorization` is forwarded as is but cannot verify upstream (it signs the
// gateway's host), and Gemini's `?key=` query form is not a header: both are out of scope.
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'] as const;

/** The caller's credential headers (lower-case names, as ingress copies them) to forward. */
export function passthroughCredential(callerHeaders: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = callerHeaders[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  return out;
}
