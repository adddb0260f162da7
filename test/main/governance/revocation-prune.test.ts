// Revocations whose key has expired guard nothing (the token fails its own expiry check): a
// running node drops them from memory as load() skips them at boot, keeping the others.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GovernanceService } from '../../../src/main/governance/service.js';
import { MemoryStore } from '../../../src/main/store/memory.js';
import type { ConfigState } from '../../../src/main/config-state.js';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { createLogger } from '../../../src/shared/log.js';

const log = createLogger('test');
log.level = 'silent';

describe('revocation prune', () => {
  it('drops the revocations of expired keys and keeps the rest', async () => {
    const store = new MemoryStore();
    const now = 1_800_000_000;
    await store.revokeKey({ id: 'key_soon', expires_at: now + 60, revoked_at: now - 10 });
    await store.revokeKey({ id: 'key_later', expires_at: now + 86_400, revoked_at: now - 10 });
    const shared = SharedState.create({ holders: 2 });
    // Only what the service reads here: no signing key (it logs that and mints nothing).
    const config = { loaded: { secrets: new Map() } } as unknown as ConfigState;
    const gov = new GovernanceService(store, new SlotRegistry(shared), shared, config, log);
    await gov.load();
    assert.deepEqual([...gov.revocations.keys()].sort(), ['key_later', 'key_soon']);
    assert.equal(gov.pruneRevocations(now), 0);
    assert.equal(gov.pruneRevocations(now + 60), 1, 'expired at its expires_at second');
    assert.deepEqual([...gov.revocations.keys()], ['key_later']);
    assert.equal(gov.pruneRevocations(now + 86_400 + 1), 1);
    assert.equal(gov.revocations.size, 0);
    await store.close();
  });
});
