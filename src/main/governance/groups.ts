// Groups (API-DECISIONS "Groups"): limit holders bound to keys, with parent chains. A group
// cannot be deleted while a key is bound to it or another group names it as parent (409).
import type { Static } from '@sinclair/typebox';
import { AdminError } from '../admin/route.js';
import type { GroupLimit, GroupRecord } from '../store/records.js';
import type { CreateGroupBody, PatchGroupBody } from './schemas.js';
import type { GovernanceService } from './service.js';

export function groupView(g: GroupRecord): GroupRecord {
  const view = structuredClone(g);
  // A record written before the field existed reads as "not set".
  view.default_output_reservation ??= null;
  return view;
}

function checkLimits(limits: GroupLimit[]): void {
  const seen = new Set<string>();
  for (const l of limits) {
    const id = l.metric === 'concurrent' ? 'concurrent' : `${l.metric}@${l.window}`;
    if (seen.has(id)) throw new AdminError(400, 'invalid_request', `limits: ${id} is given twice`);
    seen.add(id);
    if (l.metric === 'concurrent' && l.max > 0x7fffffff) throw new AdminError(400, 'invalid_request', 'limits: a concurrent max must be under 2^31');
  }
}

export class GroupDirectory {
  constructor(private readonly gov: GovernanceService) {}

  get(name: string): GroupRecord {
    const g = this.gov.groups.get(name);
    if (g === undefined) throw new AdminError(404, 'not_found', `no group "${name}"`);
    return g;
  }

  sorted(): GroupRecord[] {
    return [...this.gov.groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The parent must exist, and walking up from it must never come back to `name`. */
  private checkParent(name: string, parent: string | null): void {
    if (parent === null) return;
    if (!this.gov.groups.has(parent)) throw new AdminError(400, 'invalid_request', `parent group "${parent}" does not exist`);
    let at: string | null = parent;
    for (let depth = 0; at !== null; depth++) {
      if (at === name || depth > 16) throw new AdminError(400, 'invalid_request', `parent "${parent}" would make a cycle or a chain deeper than 16`);
      at = this.gov.groups.get(at)?.parent ?? null;
    }
  }

  async create(body: Static<typeof CreateGroupBody>): Promise<GroupRecord> {
    if (this.gov.groups.has(body.name)) throw new AdminError(409, 'conflict', `group "${body.name}" already exists`);
    const parent = body.parent ?? null;
    this.checkParent(body.name, parent);
    const limits = body.limits ?? [];
    checkLimits(limits);
    const record: GroupRecord = {
      name: body.name,
      parent,
      enabled: body.enabled ?? true,
      per_request_fee_micros: body.per_request_fee_micros ?? 0,
      rate_card: body.rate_card ?? [],
      limits,
      child_default: body.child_default ?? null,
      default_output_reservation: body.default_output_reservation ?? null,
      created_at: Math.floor(Date.now() / 1000),
    };
    await this.gov.store.putGroup(record);
    this.gov.groups.set(record.name, record);
    // A re-created name starts from zero, not from a deleted namesake's counters.
    this.gov.shared.governance.clear(this.gov.registry.groupSlot(record.name), true);
    await this.gov.push({ groups: [record.name] });
    return groupView(record);
  }

  async patch(name: string, body: Static<typeof PatchGroupBody>): Promise<GroupRecord> {
    const group = this.get(name);
    const next: GroupRecord = structuredClone(group);
    if (body.parent !== undefined) {
      this.checkParent(name, body.parent);
      next.parent = body.parent;
    }
    if (body.enabled !== undefined) next.enabled = body.enabled;
    if (body.per_request_fee_micros !== undefined) next.per_request_fee_micros = body.per_request_fee_micros;
    if (body.rate_card !== undefined) next.rate_card = body.rate_card;
    if (body.limits !== undefined) {
      checkLimits(body.limits);
      next.limits = body.limits;
    }
    if (body.child_default !== undefined) next.child_default = body.child_default;
    if (body.default_output_reservation !== undefined) next.default_output_reservation = body.default_output_reservation;
    await this.gov.store.putGroup(next);
    this.gov.groups.set(name, next);
    await this.gov.push({ groups: [name] });
    return groupView(next);
  }

  async delete(name: string): Promise<GroupRecord> {
    const group = this.get(name);
    let bound = 0;
    for (const k of this.gov.keys.values()) if (k.group === name) bound++;
    if (bound > 0) throw new AdminError(409, 'conflict', `group "${name}" has ${bound} key(s) bound to it`);
    for (const g of this.gov.groups.values()) {
      if (g.parent === name) throw new AdminError(409, 'conflict', `group "${name}" is the parent of group "${g.name}"`);
    }
    await this.gov.store.deleteGroup(name);
    this.gov.groups.delete(name);
    this.gov.snapshots.forget(`group:${name}`);
    await this.gov.push({ removeGroups: [name] });
    return groupView(group);
  }
}
