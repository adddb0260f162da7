// Identity on the main thread: one verifier per identity provider (rebuilt when its settings
// change), the token exchange behind POST /auth/token, and the provisioning of per-identity
// keys and groups. A signed-in identity's key is deterministic: its id is an HMAC of
// (provider, sub) under the key derived from auth.signing_key, and its secret is the EdDSA
// signature (deterministic) over the stored claims, so signing in again returns the same key
// until a Refresh (`rotate: true`) gives it a new jti and the old secret dies.
import { auditSafeId } from '../audit/audit-text.js';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { ConfigState } from '../config-state.js';
import type { GovernanceService } from '../governance/service.js';
import type { KeyRecord, GroupRecord, GroupLimit } from '../store/records.js';
import type { BudgetPeriod } from '../../shared/governance/windows.js';
import { parseDurationMs } from '../../shared/config/duration.js';
import { boundAdminScope, boundTeam, identityKeyId, type CompiledBindings, type CompiledIdentityProvider } from '../../shared/identity/identity.js';
import type { IdentityRequest } from '../../shared/messages.js';
import { encodeOpenAiError } from '../../shared/protocols/openai/errors.js';
import { OidcFailure, OidcVerifier, type VerifiedIdentity } from '../../shared/identity/oidc-verifier.js';

const DEFAULT_KEY_TTL = '90d';
/** A key this close to its expiry is renewed on the next sign-in rather than handed out. */
const RENEW_BEFORE_SEC = 3_600;

export interface ExchangeRequest {
  provider: string | null;
  token: string;
  rotate: boolean;
}

export interface ExchangeAnswer {
  key: string;
  key_id: string;
  expires_at: number;
  group: string | null;
  allowed_pools: string[];
}

/** A refusal: which check failed, never the token. */
export class ExchangeRefusal {
  constructor(
    readonly message: string,
    readonly status = 401,
  ) {}
}

export class IdentityService {
  private readonly verifiers = new Map<string, { fingerprint: string; verifier: OidcVerifier }>();
  /** Exchanges of one identity run one after the other (first sign-in creates records). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly gov: GovernanceService,
    private readonly config: ConfigState,
    private readonly log: Logger,
  ) {}

  providers(): CompiledIdentityProvider[] {
    return this.config.compiled.identity.providers;
  }

  bindings(): CompiledBindings {
    return this.config.compiled.identity.bindings;
  }

  provider(name: string): CompiledIdentityProvider | undefined {
    return this.providers().find((p) => p.name === name);
  }

  /** The provider's verifier (a new one when its settings changed since). */
  verifier(p: CompiledIdentityProvider): OidcVerifier {
    const fingerprint = JSON.stringify(p);
    const had = this.verifiers.get(p.name);
    if (had !== undefined && had.fingerprint === fingerprint) return had.verifier;
    const verifier = new OidcVerifier({
      issuer: p.issuer,
      audience: p.audience,
      role_claim: p.roleClaim,
      jwks_url: p.jwksUrl ?? undefined,
      ca_cert_pem: p.caCertPem ?? undefined,
      clockSkewSec: p.clockSkewSec,
    });
    this.verifiers.set(p.name, { fingerprint, verifier });
    return verifier;
  }

  async verify(providerName: string, token: string): Promise<VerifiedIdentity | OidcFailure> {
    const p = this.provider(providerName);
    if (p === undefined) return new OidcFailure('malformed', `no identity provider named "${providerName}"`);
    return this.verifier(p).verify(token);
  }

  /** POST /auth/token: verify, resolve the bound team, provision, answer the caller's key. */
  async exchange(req: ExchangeRequest): Promise<ExchangeAnswer | ExchangeRefusal> {
    const all = this.providers();
    if (all.length === 0) return new ExchangeRefusal('token exchange is not configured (no identity-providers)', 404);
    let p: CompiledIdentityProvider | undefined;
    if (req.provider === null) {
      if (all.length > 1)
        return new ExchangeRefusal(`"provider" is required: several identity providers are configured (${all.map((x) => x.name).join(', ')})`, 400);
      p = all[0];
    } else p = this.provider(req.provider);
    if (p === undefined) return new ExchangeRefusal(`no identity provider named "${req.provider}"`, 400);
    if (req.token === '') return new ExchangeRefusal('no token: send {"token"} in the body or Authorization: Bearer', 400);
    const verified = await this.verifier(p).verify(req.token);
    if (verified instanceof OidcFailure) return new ExchangeRefusal(verified.message, verified.check === 'unavailable' ? 503 : 401);
    return this.exchangeVerified(p, verified.sub, verified.groups, req.rotate);
  }

  /** The key of an identity whose token was verified (here, or by the sign-in flow). */
  exchangeVerified(p: CompiledIdentityProvider, sub: string, groups: string[], rotate: boolean): Promise<ExchangeAnswer | ExchangeRefusal> {
    const team = boundTeam(this.bindings(), p.name, groups);
    if (team === null)
      return Promise.resolve(new ExchangeRefusal(`no group binding: none of the token's groups is bound to a team in role_bindings.${p.name}`));
    return this.serialized(`${p.name}\u0000${sub}`, () => this.issue(p, sub, team, rotate));
  }

  /** auth.chain: a worker verified an IdP token whose identity has no key yet. */
  async provision(providerName: string, sub: string, groups: string[]): Promise<ExchangeAnswer | ExchangeRefusal> {
    const p = this.provider(providerName);
    if (p === undefined) return new ExchangeRefusal(`no identity provider named "${providerName}"`);
    return this.exchangeVerified(p, sub, groups, false);
  }

  /** A worker's identity-req, answered as an HTTP status and JSON body. */
  async answer(request: Exclude<IdentityRequest, { kind: 'page' }>): Promise<{ status: number; body: string }> {
    let outcome: ExchangeAnswer | ExchangeRefusal;
    if (request.kind === 'provision') outcome = await this.provision(request.provider, request.sub, request.groups);
    else {
      const parsed = parseExchange(request.authorization, request.body);
      outcome = parsed instanceof ExchangeRefusal ? parsed : await this.exchange(parsed);
    }
    if (outcome instanceof ExchangeRefusal) {
      const kind =
        outcome.status === 401 ? 'unauthorized' : outcome.status === 404 ? 'route_not_found' : outcome.status === 400 ? 'invalid_request' : 'internal';
      const e = encodeOpenAiError('openai', kind, outcome.message);
      return { status: outcome.status, body: e.body };
    }
    return { status: 200, body: JSON.stringify(outcome) };
  }

  private serialized<T>(id: string, run: () => Promise<T>): Promise<T> {
    const before = this.queues.get(id) ?? Promise.resolve();
    const next = before.then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return next;
  }

  private async issue(p: CompiledIdentityProvider, sub: string, team: string, rotate: boolean): Promise<ExchangeAnswer | ExchangeRefusal> {
    const gov = this.gov;
    const signer = gov.signer;
    if (signer === null) return new ExchangeRefusal('token exchange needs auth.signing_key', 503);
    const teamRecord = gov.groups.get(team);
    if (teamRecord === undefined) return new ExchangeRefusal(`no group binding: the bound team "${team}" does not exist`);
    const id = identityKeyId(signer.awsDerivationKey, p.name, sub);
    if (gov.revocations.has(id)) return new ExchangeRefusal("this identity's key was revoked by an operator");
    const template = childDefault(teamRecord);
    const groupName = await this.ensureGroup(teamRecord, sub, template);
    const nowSec = Math.floor(Date.now() / 1000);
    const ttlSec = this.ttlSec();
    let record = gov.keys.get(id);
    if (record === undefined) {
      record = {
        id,
        name: `user:${sub}`,
        group: groupName,
        allowed_pools: template.allowedPools,
        max_budget_cents: template.maxBudgetCents,
        budget_period: template.budgetPeriod,
        rpm_limit: template.rpmLimit,
        tpm_limit: template.tpmLimit,
        enabled: true,
        created_at: nowSec,
        expires_at: nowSec + ttlSec,
        jti: randomBytes(12).toString('base64url'),
        aws_access_key_id: null,
      };
      await gov.store.putKey(record);
      gov.keys.set(id, record);
      gov.keySlots.set(id, gov.registry.allocateKeySlot());
      await gov.push({ keys: [id] });
      this.log.info({ key: id, provider: p.name, group: groupName }, 'identity key provisioned on first exchange');
    } else if (rotate || this.dueForRenewal(record, nowSec, ttlSec) || record.group !== groupName) {
      const next: KeyRecord = { ...record, group: groupName };
      if (rotate || this.dueForRenewal(record, nowSec, ttlSec)) {
        next.jti = randomBytes(12).toString('base64url');
        next.expires_at = nowSec + ttlSec;
      }
      await gov.store.putKey(next);
      gov.keys.set(id, next);
      await gov.push({ keys: [id] });
      record = next;
    }
    const key = await signer.sign({ sub: id, jti: record.jti, iatSec: record.created_at, expSec: record.expires_at });
    return { key, key_id: id, expires_at: record.expires_at, group: record.group, allowed_pools: [...record.allowed_pools] };
  }

  /** The identity's own group under its team, made from the team's child_default once. */
  private async ensureGroup(team: GroupRecord, sub: string, template: ChildTemplate): Promise<string> {
    const name = `user:${auditSafeId(sub)}@${team.name}`.slice(0, 128);
    if (this.gov.groups.has(name)) return name;
    await this.gov.directory.create({
      name,
      parent: team.name,
      limits: template.limits,
      per_request_fee_micros: template.perRequestFeeMicros,
      rate_card: template.rateCard as never,
    });
    this.log.info({ group: name, parent: team.name }, "identity group provisioned from the team's child_default");
    return name;
  }

  /** Near its expiry (an hour, or a tenth of a short key_ttl) a key is renewed on sign-in. */
  private dueForRenewal(record: KeyRecord, nowSec: number, ttlSec: number): boolean {
    return record.expires_at - Math.min(RENEW_BEFORE_SEC, Math.floor(ttlSec / 10)) <= nowSec;
  }

  private ttlSec(): number {
    const ttl = this.config.loaded.config?.auth.key_ttl ?? DEFAULT_KEY_TTL;
    return Math.floor((parseDurationMs(ttl) ?? 90 * 86_400_000) / 1000);
  }
}

/** The body `{ provider?, token?, rotate? }`, the token possibly as Authorization: Bearer. */
function parseExchange(authorization: string, raw: string): ExchangeRequest | ExchangeRefusal {
  let body: unknown = {};
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      return new ExchangeRefusal('the body is not valid JSON', 400);
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return new ExchangeRefusal('the body must be a JSON object', 400);
  const b = body as Record<string, unknown>;
  if (b.provider !== undefined && typeof b.provider !== 'string') return new ExchangeRefusal('"provider" must be a string', 400);
  if (b.token !== undefined && typeof b.token !== 'string') return new ExchangeRefusal('"token" must be a string', 400);
  if (b.rotate !== undefined && typeof b.rotate !== 'boolean') return new ExchangeRefusal('"rotate" must be a boolean', 400);
  const bearer = /^bearer /i.test(authorization) ? authorization.slice(7).trim() : '';
  return { provider: (b.provider as string | undefined) ?? null, token: (b.token as string | undefined) ?? bearer, rotate: b.rotate === true };
}

interface ChildTemplate {
  limits: GroupLimit[];
  perRequestFeeMicros: number;
  rateCard: unknown[];
  allowedPools: string[];
  maxBudgetCents: number | null;
  budgetPeriod: BudgetPeriod;
  rpmLimit: number | null;
  tpmLimit: number | null;
}

/**
 * child_default is a template object: group fields (`limits`, `per_request_fee_micros`,
 * `rate_card`) for the identity's own group, key fields (`allowed_pools` default ["*"],
 * `max_budget_cents`, `budget_period`, `rpm_limit`, `tpm_limit`) for its key.
 */
function childDefault(team: GroupRecord): ChildTemplate {
  const t = (team.child_default ?? {}) as Record<string, unknown>;
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    limits: Array.isArray(t.limits) ? (t.limits as GroupLimit[]) : [],
    perRequestFeeMicros: num(t.per_request_fee_micros) ?? 0,
    rateCard: Array.isArray(t.rate_card) ? t.rate_card : [],
    allowedPools: Array.isArray(t.allowed_pools) ? t.allowed_pools.filter((x): x is string => typeof x === 'string') : ['*'],
    maxBudgetCents: num(t.max_budget_cents),
    budgetPeriod: (typeof t.budget_period === 'string' ? t.budget_period : 'monthly') as BudgetPeriod,
    rpmLimit: num(t.rpm_limit),
    tpmLimit: num(t.tpm_limit),
  };
}

/** An identity-provider module of auth.admin_auth: the principal, or why it was refused. */
export async function idpAdminPrincipal(
  identity: IdentityService,
  module: string,
  token: string,
): Promise<{ id: string; scope: 'read-only' | 'full' } | { refused: string } | null> {
  const p = identity.provider(module);
  if (p === undefined) return null;
  if (p.maxAdminScope === 'none') return { refused: `identity provider "${p.name}" may not reach the admin plane (max_admin_scope: none)` };
  const verified = await identity.verifier(p).verify(token);
  if (verified instanceof OidcFailure) return { refused: `${p.name}: ${verified.message}` };
  const scope = boundAdminScope(identity.bindings(), p, verified.groups);
  if (scope === 'none') return { refused: `${p.name}: no admin_scope binding for any of the token's groups` };
  // The sub is the IdP's (Auth0's are `auth0|...`): escaped, so the principal holds no "|".
  return { id: `idp:${p.name}:user:${auditSafeId(verified.sub)}`, scope };
}
