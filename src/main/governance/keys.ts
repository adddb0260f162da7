// The virtual-key life cycle: mint, read, patch, delete (revoke), rotate. Secrets exist only in
// the mint and rotate answers: the store and every read hold metadata.
import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { parseDurationMs } from '../../shared/config/duration.js';
import { deriveAwsSecret } from '../../shared/governance/aws-credential.js';
import { AdminError } from '../admin/route.js';
import type { KeyRecord } from '../store/records.js';
import type { MintKeyBody, PatchKeyBody } from './schemas.js';
import type { GovernanceService } from './service.js';

const DEFAULT_KEY_TTL = '90d';
const AWS_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface KeyViewShape {
  id: string;
  name: string;
  allowed_pools: string[];
  max_budget_cents: number | null;
  budget_period: string;
  rpm_limit: number | null;
  tpm_limit: number | null;
  enabled: boolean;
  created_at: number;
  group: string | null;
  expires_at: number;
}

export function keyView(k: KeyRecord, enabled = k.enabled): KeyViewShape {
  return {
    id: k.id,
    name: k.name,
    allowed_pools: [...k.allowed_pools],
    max_budget_cents: k.max_budget_cents,
    budget_period: k.budget_period,
    rpm_limit: k.rpm_limit,
    tpm_limit: k.tpm_limit,
    enabled,
    created_at: k.created_at,
    group: k.group,
    expires_at: k.expires_at,
  };
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000);
}

function awsAccessKeyId(): string {
  const bytes = randomBytes(16);
  let id = 'AKGW';
  for (let i = 0; i < 16; i++) id += AWS_ID_ALPHABET[bytes[i]! & 31];
  return id;
}

export class KeyLifecycle {
  constructor(private readonly gov: GovernanceService) {}

  private signer() {
    const signer = this.gov.signer;
    if (signer === null) throw new AdminError(400, 'invalid_request', 'auth.signing_key is not configured (or is not an ed25519 key): keys cannot be minted');
    return signer;
  }

  private maxTtlSec(): number {
    const ttl = this.gov.config.loaded.config?.auth.key_ttl ?? DEFAULT_KEY_TTL;
    return Math.floor((parseDurationMs(ttl) ?? 90 * 86_400_000) / 1000);
  }

  private checkGroup(name: string | null): void {
    if (name !== null && !this.gov.groups.has(name)) throw new AdminError(400, 'invalid_request', `group "${name}" does not exist`);
  }

  private checkPools(pools: string[]): void {
    const c = this.gov.config.compiled;
    for (const p of pools) {
      if (p === '*' || c.pools.some((x) => x.name === p) || c.lanes.some((l) => l.name === p)) continue;
      throw new AdminError(400, 'invalid_request', `allowed_pools: no pool or model named "${p}"`);
    }
  }

  get(id: string): KeyRecord {
    const key = this.gov.keys.get(id);
    if (key === undefined) throw new AdminError(404, 'not_found', `no key "${id}"`);
    return key;
  }

  /** Keys by created_at then id (API-DECISIONS paging order). */
  sorted(): KeyRecord[] {
    return [...this.gov.keys.values()].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async mint(body: Static<typeof MintKeyBody>): Promise<Record<string, unknown>> {
    const signer = this.signer();
    const maxTtl = this.maxTtlSec();
    let ttlSec = maxTtl;
    if (body.ttl !== undefined) {
      ttlSec = Math.floor((parseDurationMs(body.ttl) ?? 0) / 1000);
      if (ttlSec <= 0) throw new AdminError(400, 'invalid_request', 'ttl must be longer than zero');
      if (ttlSec > maxTtl) throw new AdminError(400, 'invalid_request', `ttl ${body.ttl} is above auth.key_ttl`);
    }
    const group = body.group ?? this.gov.config.loaded.config?.governance?.default_group ?? null;
    this.checkGroup(group);
    this.checkPools(body.allowed_pools);
    const created = nowSec();
    const record: KeyRecord = {
      id: `key_${randomBytes(12).toString('base64url')}`,
      name: body.name,
      group,
      allowed_pools: [...body.allowed_pools],
      max_budget_cents: body.max_budget_cents ?? null,
      budget_period: body.budget_period ?? 'monthly',
      rpm_limit: body.rpm_limit ?? null,
      tpm_limit: body.tpm_limit ?? null,
      enabled: true,
      created_at: created,
      expires_at: created + ttlSec,
      jti: randomBytes(12).toString('base64url'),
      aws_access_key_id: body.issue_aws_credential === true ? awsAccessKeyId() : null,
    };
    const secret = await signer.sign({ sub: record.id, jti: record.jti, iatSec: created, expSec: record.expires_at });
    await this.gov.store.putKey(record);
    this.gov.keys.set(record.id, record);
    this.gov.keySlots.set(record.id, this.gov.registry.allocateKeySlot());
    await this.gov.push({ keys: [record.id] });
    const view: Record<string, unknown> = { ...keyView(record), secret };
    if (record.aws_access_key_id !== null) {
      view.aws_access_key_id = record.aws_access_key_id;
      view.aws_secret_access_key = deriveAwsSecret(signer.awsDerivationKey, record.aws_access_key_id);
    }
    return view;
  }

  async patch(id: string, body: Static<typeof PatchKeyBody>): Promise<KeyViewShape> {
    const key = this.get(id);
    const next: KeyRecord = { ...key, allowed_pools: [...key.allowed_pools] };
    if (body.name !== undefined) next.name = body.name;
    if (body.group !== undefined) {
      this.checkGroup(body.group);
      next.group = body.group;
    }
    if (body.allowed_pools !== undefined) {
      this.checkPools(body.allowed_pools);
      next.allowed_pools = [...body.allowed_pools];
    }
    if (body.max_budget_cents !== undefined) next.max_budget_cents = body.max_budget_cents;
    if (body.budget_period !== undefined) next.budget_period = body.budget_period;
    if (body.rpm_limit !== undefined) next.rpm_limit = body.rpm_limit;
    if (body.tpm_limit !== undefined) next.tpm_limit = body.tpm_limit;
    if (body.enabled !== undefined) next.enabled = body.enabled;
    await this.gov.store.putKey(next);
    this.gov.keys.set(id, next);
    await this.gov.push({ keys: [id] });
    return keyView(next);
  }

  /** Revoke: the id goes on the durable denylist and every worker drops the key at once. */
  async delete(id: string): Promise<KeyViewShape> {
    const key = this.get(id);
    const revocation = { id, expires_at: key.expires_at, revoked_at: nowSec() };
    await this.gov.store.revokeKey(revocation);
    this.gov.keys.delete(id);
    this.gov.revocations.set(id, revocation);
    await this.gov.push({ removeKeys: [id] });
    // Every worker has dropped the key: its record can serve the next key.
    const slot = this.gov.keySlots.get(id);
    this.gov.keySlots.delete(id);
    this.gov.snapshots.forget(`key:${id}`);
    if (slot !== undefined) this.gov.registry.releaseKeySlot(slot);
    return keyView(key, false);
  }

  /** A fresh secret (new jti and expiry); the old one is refused from the next request on. */
  async rotate(id: string): Promise<Record<string, unknown>> {
    const signer = this.signer();
    const key = this.get(id);
    const issued = nowSec();
    const lifetime = Math.min(this.maxTtlSec(), Math.max(1, key.expires_at - key.created_at));
    const next: KeyRecord = { ...key, jti: randomBytes(12).toString('base64url'), expires_at: issued + lifetime };
    const secret = await signer.sign({ sub: id, jti: next.jti, iatSec: issued, expSec: next.expires_at });
    await this.gov.store.putKey(next);
    this.gov.keys.set(id, next);
    await this.gov.push({ keys: [id] });
    return { ...keyView(next), secret };
  }
}
