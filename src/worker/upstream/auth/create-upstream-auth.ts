// The factory: one UpstreamAuth per provider, made from its compiled auth mode.
import type { CompiledProvider } from '../../../shared/config/compiled.js';
import { createLogger, type Logger } from '../../../shared/log.js';
import { BearerAuth } from './bearer.js';
import { HeaderAuth } from './header.js';
import { JwtBearerAuth } from './jwt-bearer.js';
import type { TokenTiming } from './minted-token-auth.js';
import { MissingKeyAuth } from './missing-key.js';
import { NoAuth } from './none.js';
import { OAuthClientCredentialsAuth } from './oauth-client-credentials.js';
import { SigV4Auth } from './sigv4.js';
import type { UpstreamAuth } from './upstream-auth.js';

export interface UpstreamAuthOptions {
  /** Retry and timeout settings of the token-minting modes (tests shorten them). */
  tokenTiming?: Partial<TokenTiming>;
  /** Clock for SigV4 signing dates. */
  now?: () => Date;
}

/**
 * Builds the credential mode of `provider`. Token-minting modes start minting at once and
 * keep refreshing until close(). Throws a clear error on an unusable setting (bad header name,
 * bad token URL, empty region) so that boot can report it.
 */
export function createUpstreamAuth(provider: CompiledProvider, log?: Logger, options: UpstreamAuthOptions = {}): UpstreamAuth {
  if (provider.missingKey) return new MissingKeyAuth();
  const auth = provider.auth;
  switch (auth.mode) {
    case 'none':
      return new NoAuth();
    case 'bearer':
      return new BearerAuth(auth.token);
    case 'header':
      return new HeaderAuth(auth.header, auth.value);
    case 'sigv4':
      return new SigV4Auth(auth, { now: options.now });
    case 'jwt-bearer':
      return new JwtBearerAuth(provider.name, auth, log ?? createLogger('upstream-auth'), options.tokenTiming);
    case 'oauth-client-credentials':
      return new OAuthClientCredentialsAuth(provider.name, auth, log ?? createLogger('upstream-auth'), options.tokenTiming);
    default: {
      const mode: string = (auth as { mode: string }).mode;
      throw new Error(`provider ${provider.name}: unknown upstream auth mode ${JSON.stringify(mode)}`);
    }
  }
}
