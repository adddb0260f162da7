// `auth: oauth-client-credentials` (Azure Entra ID and other OAuth2 hosts): the
// client-credentials grant (RFC 6749 section 4.4) with the secret in the form body.
import type { CompiledAuth } from '../../../shared/config/compiled.js';
import type { Logger } from '../../../shared/log.js';
import { MintedTokenAuth, type TokenTiming } from './minted-token-auth.js';
import { postTokenForm, type MintedToken } from './token-endpoint.js';

type ClientCredentialsConfig = Extract<CompiledAuth, { mode: 'oauth-client-credentials' }>;

export class OAuthClientCredentialsAuth extends MintedTokenAuth {
  readonly #tokenUrl: string;
  // The form never changes: encode it once.
  readonly #form: URLSearchParams;

  constructor(provider: string, auth: ClientCredentialsConfig, log: Logger, timing?: Partial<TokenTiming>) {
    super(provider, auth.tokenUrl, log, timing);
    this.#tokenUrl = auth.tokenUrl;
    this.#form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: auth.clientSecret });
    if (auth.scope) this.#form.set('scope', auth.scope);
    this.start();
  }

  protected mint(signal: AbortSignal): Promise<MintedToken> {
    return postTokenForm({
      dispatcher: this.dispatcher,
      tokenUrl: this.#tokenUrl,
      form: this.#form,
      timeoutMs: this.timing.requestTimeoutMs,
      signal,
    });
  }
}
