// The gate of a pool with gate hooks. Its gates are asked in priority order (lowest first),
// each seeing the body as the gates before it rewrote it: the first to reject ends the decision
// (so priority breaks a reject tie), the first to return an order sets the order, rewrites
// (prompt: rw) accumulate. A gate that times out or fails is replaced by its `on_error`: a
// terminal (weighted = the built-in SWRR, first = members in config order, reject = refuse,
// nothing = abstain) or the named fallback gate, whose own on_error applies in turn (the config
// checks refuse a chain that loops).
import type { CompiledHook, CompiledPool } from '../../shared/config/compiled.js';
import type { HookTransport } from '../../shared/hooks/transport.js';
import type { GateRequestInfo, HookReply } from '../../shared/hooks/wire.js';
import { GateVerdict, type GateDecision, type GateRequest, type RouteGate } from './route-gate.js';
import type { SharedState } from '../../shared/sab/index.js';
import { countPolicyRejection, countPolicySelection, routePolicyRejectionName } from '../metrics/route-policy.js';

const ABSTAIN: GateDecision = Object.freeze({ verdict: GateVerdict.Abstain, order: [], status: 0, message: '' });

/** What one gate said, after `on_error`: a decision, or `null` (abstain, keep asking); `policy` names who decided. */
type GateOutcome = { final: boolean; decision: GateDecision | null; body?: unknown; policy?: string };

export class PoolGate implements RouteGate {
  private readonly configOrder: readonly number[];

  constructor(
    private readonly memberNames: readonly string[],
    /** Indexes into `hooks` of this pool's gates, by priority. */
    private readonly gates: readonly number[],
    private readonly hooks: readonly CompiledHook[],
    private readonly transports: readonly HookTransport[],
    /** Where gateway_route_policy_* count (the pool's slots); null counts nothing (unit tests). */
    private readonly counting: { shared: SharedState; pool: CompiledPool } | null = null,
  ) {
    this.configOrder = memberNames.map((_, i) => i);
  }

  async decide(poolName: string, _memberCount: number, request: GateRequest): Promise<GateDecision> {
    let body = request.body;
    let rewritten = false;
    let order: GateDecision | null = null;
    let policy = '';
    for (const index of this.gates) {
      const outcome = await this.ask(index, poolName, request, body, 0);
      if (outcome.body !== undefined) {
        body = outcome.body;
        rewritten = true;
      }
      if (outcome.decision !== null) {
        if (outcome.decision.verdict === GateVerdict.Reject) {
          const by = outcome.policy ?? this.hooks[index]!.name;
          if (this.counting !== null) countPolicyRejection(this.counting.shared, this.counting.pool, routePolicyRejectionName(by, outcome.decision.status));
          return outcome.decision;
        }
        if (order === null) {
          order = outcome.decision;
          policy = outcome.policy ?? this.hooks[index]!.name;
        }
      }
      if (outcome.final) break;
    }
    // With no order the router picks by `weighted` and counts that itself.
    if (order !== null && this.counting !== null) countPolicySelection(this.counting.shared, this.counting.pool, policy);
    const decision = order ?? ABSTAIN;
    return rewritten ? { ...decision, body } : decision;
  }

  /** Ask gate `index`; on failure follow its on_error (depth-capped as a second guard against loops). */
  private async ask(index: number, poolName: string, request: GateRequest, body: unknown, depth: number): Promise<GateOutcome> {
    const hook = this.hooks[index]!;
    try {
      const reply = await this.transports[index]!.request(
        { type: 'gate', pool: poolName, members: this.memberNames as string[], request: this.infoFor(hook, request, body) },
        hook.timeoutMs,
      );
      const outcome = this.outcomeOf(hook, reply);
      outcome.policy = hook.name;
      return outcome;
    } catch {
      const onError = hook.onError;
      if ('hook' in onError) {
        if (depth >= this.hooks.length) return { final: false, decision: null };
        return this.ask(onError.hook, poolName, request, body, depth + 1);
      }
      switch (onError.terminal) {
        case 'weighted':
          return { final: true, decision: null };
        case 'first':
          return { final: true, decision: { verdict: GateVerdict.Reorder, order: this.configOrder, status: 0, message: '' }, policy: 'first' };
        case 'reject':
          return {
            final: true,
            decision: { verdict: GateVerdict.Reject, order: [], status: 503, message: `the routing gate "${hook.name}" did not decide in time` },
            policy: 'reject',
          };
        case 'nothing':
          return { final: false, decision: null };
      }
    }
  }

  private infoFor(hook: CompiledHook, request: GateRequest, body: unknown): GateRequestInfo {
    const info: GateRequestInfo = { request_id: request.requestId, protocol: request.protocolName, model: request.model, stream: request.stream };
    if (hook.prompt !== 'no') info.prompt = body;
    if (hook.user === 'ro') info.key_id = request.keyId;
    return info;
  }

  private outcomeOf(hook: CompiledHook, reply: HookReply): GateOutcome {
    if (reply.type !== 'gate') throw new Error('not a gate reply');
    // A rewrite is honoured only with prompt: rw.
    const body = hook.prompt === 'rw' && reply.prompt !== undefined && reply.prompt !== null && typeof reply.prompt === 'object' ? reply.prompt : undefined;
    if (reply.decision === 'reject') {
      const status = typeof reply.status === 'number' && reply.status >= 400 && reply.status <= 499 ? reply.status : 403;
      const message = typeof reply.message === 'string' && reply.message !== '' ? reply.message.slice(0, 500) : `refused by the routing gate "${hook.name}"`;
      return { final: true, decision: { verdict: GateVerdict.Reject, order: [], status, message } };
    }
    if (reply.decision === 'order' && Array.isArray(reply.order)) {
      const order: number[] = [];
      for (const name of reply.order) {
        const i = this.memberNames.indexOf(name);
        if (i !== -1 && !order.includes(i)) order.push(i);
      }
      if (order.length > 0)
        return { final: false, decision: { verdict: GateVerdict.Reorder, order, status: 0, message: '' }, ...(body === undefined ? {} : { body }) };
    }
    if (reply.decision !== 'order' && reply.decision !== 'abstain') throw new Error('unknown gate decision');
    return { final: false, decision: null, ...(body === undefined ? {} : { body }) };
  }
}
