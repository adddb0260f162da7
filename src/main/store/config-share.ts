// Config applies across nodes on a shared store. An API change of the live document on one node
// (POST /config/apply, rollback, PUT /admin-auth, hook changes) is written to the store as the
// shared config (one row / hash: seq, origin node, document) with the same change notification
// as keys and groups; every other node's PeerSync then applies it like a local apply. What is
// per node stays this node's own: its listen addresses, provider file path, store, config
// section (locked, overlay file), TLS and advanced (worker threads) settings. A node whose
// config is locked takes no config from the others (its file is the only source). A booting node does not take the shared config: like a
// restart of one node, it boots from its files (README, Stores).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { ConfigState } from '../config-state.js';
import type { WorkerPool } from '../workers.js';
import type { ChangeFeed } from './peer-sync.js';

/** Top-level config fields that describe one node, not the fleet. */
const NODE_LOCAL_FIELDS = ['listen', 'admin_listen', 'providers_file', 'store', 'config', 'tls', 'advanced'] as const;

export class ConfigShare {
  readonly nodeId = randomUUID();
  /** The shared config seq this node has seen (applied, published or skipped at boot); null until first read. */
  private seenSeq: number | null = null;
  applied = 0;

  constructor(
    private readonly store: ChangeFeed,
    private readonly state: ConfigState,
    private readonly workers: WorkerPool,
    private readonly log: Logger,
  ) {}

  /** What was shared before this node booted is not applied; from now on it publishes its applies. */
  async start(): Promise<void> {
    // Unreachable at boot: the first sync that reads it takes it as seen instead.
    await this.store.readConfig().then(
      (shared) => (this.seenSeq = shared?.seq ?? 0),
      () => undefined,
    );
    this.state.share = async (document) => {
      const seq = await this.store.publishConfig(this.nodeId, document);
      if (this.seenSeq !== null && seq > this.seenSeq) this.seenSeq = seq;
    };
  }

  stop(): void {
    this.state.share = null;
  }

  /** Applies the shared config when another node published a newer one. */
  async sync(): Promise<void> {
    const shared = await this.store.readConfig();
    if (this.seenSeq === null) {
      this.seenSeq = shared?.seq ?? 0;
      return;
    }
    if (shared === null || shared.seq <= this.seenSeq) return;
    this.seenSeq = shared.seq;
    if (shared.origin === this.nodeId) return;
    if (this.state.locked()) {
      this.log.warn({ shared_seq: shared.seq }, "store: another node applied a config; this node's config is locked, so it keeps its own");
      return;
    }
    const mine = this.state.currentDocument();
    const document = { ...(shared.document as Record<string, unknown>) };
    for (const field of NODE_LOCAL_FIELDS) {
      if (mine[field] === undefined) delete document[field];
      else document[field] = mine[field];
    }
    const outcome = await this.state.applyDocument(this.workers, document, {
      principal: 'peer-node',
      summary: `config apply from another node (shared seq ${shared.seq})`,
      fromPeer: true,
    });
    if (outcome.applied) {
      this.applied++;
      this.log.info({ config_version: outcome.version, shared_seq: shared.seq }, 'store: applied a config another node applied');
    } else {
      this.log.error({ errors: outcome.errors, shared_seq: shared.seq }, "store: the config another node applied is invalid here; keeping this node's config");
    }
  }
}
