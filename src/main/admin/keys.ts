// Virtual keys: GET/POST /keys, GET/PATCH/DELETE /keys/{id}, POST /keys/{id}/rotate,
// GET /keys/{id}/usage. The secret is in the mint and rotate answers only.
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { checkBody } from '../governance/request-body.js';
import { keyView } from '../governance/keys.js';
import { keyMeteringView } from '../governance/key-metering.js';
import { pageBySortKey } from './paging.js';
import { CreatedKeyView, KeyMeteringView, KeyPage, KeyView, MintKeyBody, PageQuery, PatchKeyBody, RotatedKeyView } from '../governance/schemas.js';

const keyResource = (call: { params: Record<string, string> }, reply?: { body: unknown }): string =>
  `key:${call.params.id ?? (reply?.body as { id?: string } | undefined)?.id ?? ''}`;

export const keyRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/keys',
    operationId: 'listKeys',
    summary: 'Virtual keys (metadata only), by created_at then id',
    tag: 'keys',
    query: PageQuery,
    responses: { 200: KeyPage },
    handler(call, ctx) {
      const page = pageBySortKey(ctx.governance.lifecycle.sorted(), (k) => `${String(k.created_at).padStart(12, '0')}:${k.id}`, call.query);
      return { status: 200, body: { items: page.items.map((k) => keyView(k)), next_cursor: page.next_cursor } };
    },
  },
  {
    method: 'POST',
    path: '/keys',
    operationId: 'mintKey',
    summary: 'Mint a virtual key; the secret is returned once',
    tag: 'keys',
    body: MintKeyBody,
    responses: { 201: CreatedKeyView },
    audit: { action: 'key.create', resource: keyResource },
    async handler(call, ctx) {
      return { status: 201, body: await ctx.governance.lifecycle.mint(checkBody(MintKeyBody, call.body)) };
    },
  },
  {
    method: 'GET',
    path: '/keys/{id}',
    operationId: 'getKey',
    summary: 'One virtual key (metadata only)',
    tag: 'keys',
    responses: { 200: KeyView },
    handler(call, ctx) {
      return { status: 200, body: keyView(ctx.governance.lifecycle.get(call.params.id!)) };
    },
  },
  {
    method: 'PATCH',
    path: '/keys/{id}',
    operationId: 'patchKey',
    summary: 'Change a key; applies to the next request with the same secret',
    tag: 'keys',
    body: PatchKeyBody,
    responses: { 200: KeyView },
    audit: { action: 'key.update', resource: keyResource },
    async handler(call, ctx) {
      return { status: 200, body: await ctx.governance.lifecycle.patch(call.params.id!, checkBody(PatchKeyBody, call.body)) };
    },
  },
  {
    method: 'DELETE',
    path: '/keys/{id}',
    operationId: 'deleteKey',
    summary: 'Revoke a key (durable denylist); answers its KeyView with enabled false',
    tag: 'keys',
    responses: { 200: KeyView },
    audit: { action: 'key.delete', resource: keyResource },
    async handler(call, ctx) {
      return { status: 200, body: await ctx.governance.lifecycle.delete(call.params.id!) };
    },
  },
  {
    method: 'POST',
    path: '/keys/{id}/rotate',
    operationId: 'rotateKey',
    summary: 'A fresh secret, returned once; the old one stops working',
    tag: 'keys',
    responses: { 200: RotatedKeyView },
    audit: { action: 'key.rotate', resource: keyResource },
    async handler(call, ctx) {
      return { status: 200, body: await ctx.governance.lifecycle.rotate(call.params.id!) };
    },
  },
  {
    method: 'GET',
    path: '/keys/{id}/usage',
    operationId: 'getKeyUsage',
    summary: "A key's counters in its current budget window",
    tag: 'keys',
    responses: { 200: KeyMeteringView },
    handler(call, ctx) {
      const key = ctx.governance.lifecycle.get(call.params.id!);
      return { status: 200, body: keyMeteringView(ctx.governance, key) };
    },
  },
];
