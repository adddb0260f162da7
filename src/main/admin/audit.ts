// GET /audit: this node's in-memory ring of audit entries (bounded, AUDIT_RING_CAPACITY),
// newest first, paged; never the durable store.
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import { pageBefore, PageOf, PageQueryFields } from './paging.js';
import type { AdminRoute } from './route.js';

const Uint = Type.Integer({ minimum: 0 });
const AuditEntryView = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    ts: Uint,
    action: Type.String({ description: '`noun.verb`, e.g. `config.apply`.' }),
    resource: Type.String(),
    outcome: Type.Union([Type.Literal('applied'), Type.Literal('rejected')]),
    principal: Type.String({ description: '`admin` for the operator token; `anonymous` for the open posture.' }),
    prev_hash: Type.String(),
    hash: Type.String({ description: 'sha256(prev_hash|seq|ts|action|resource|outcome|principal), hex.' }),
    chain_prev_hash: Type.String({
      description:
        "The prev_hash this entry's hash covers: equal to prev_hash, except on the oldest retained entry after the ring pruned its predecessor, whose prev_hash reads empty (the spec) while this keeps the pruned hash, so that entry still verifies: hash = sha256(chain_prev_hash|seq|ts|action|resource|outcome|principal).",
    }),
  },
  { title: 'AuditEntry' },
);

export const auditRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/audit',
    operationId: 'listAudit',
    summary: "This node's in-memory audit ring, newest first",
    tag: 'audit',
    query: Type.Object(PageQueryFields),
    responses: { 200: PageOf(AuditEntryView, 'AuditPage') },
    handler(call, ctx) {
      return { status: 200, body: pageBefore(call.query, 'seq', (limit, before) => ctx.audit.newestFirst(limit, before)) };
    },
  },
];
