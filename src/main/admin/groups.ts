// Groups (API-DECISIONS): GET/POST /groups, GET/PATCH/DELETE /groups/{name}.
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { checkBody } from '../governance/request-body.js';
import { groupView } from '../governance/groups.js';
import { groupMeteringView } from '../governance/group-metering.js';
import { pageBySortKey } from './paging.js';
import { CreateGroupBody, GroupMeteringView, GroupPage, GroupView, PageQuery, PatchGroupBody } from '../governance/schemas.js';

const groupResource = (call: { params: Record<string, string>; body: unknown }): string =>
  `group:${call.params.name ?? (call.body as { name?: string } | undefined)?.name ?? ''}`;

export const groupRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/groups',
    operationId: 'listGroups',
    summary: 'Groups, by name',
    tag: 'groups',
    query: PageQuery,
    responses: { 200: GroupPage },
    handler(call, ctx) {
      const page = pageBySortKey(ctx.governance.directory.sorted(), (g) => g.name, call.query);
      return { status: 200, body: { items: page.items.map(groupView), next_cursor: page.next_cursor } };
    },
  },
  {
    method: 'POST',
    path: '/groups',
    operationId: 'createGroup',
    summary: 'Create a group',
    tag: 'groups',
    body: CreateGroupBody,
    responses: { 201: GroupView },
    audit: { action: 'group.create', resource: groupResource },
    async handler(call, ctx) {
      return { status: 201, body: await ctx.governance.directory.create(checkBody(CreateGroupBody, call.body)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/{name}',
    operationId: 'getGroup',
    summary: 'One group',
    tag: 'groups',
    responses: { 200: GroupView },
    handler(call, ctx) {
      return { status: 200, body: groupView(ctx.governance.directory.get(call.params.name!)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/{name}/usage',
    operationId: 'getGroupUsage',
    summary: "Each of a group's limits with its current window's use and reservations",
    tag: 'groups',
    responses: { 200: GroupMeteringView },
    handler(call, ctx) {
      return { status: 200, body: groupMeteringView(ctx.governance, ctx.governance.directory.get(call.params.name!)) };
    },
  },
  {
    method: 'PATCH',
    path: '/groups/{name}',
    operationId: 'patchGroup',
    summary: "Change a group's limits, prices, parent or enabled flag; applies to the next request",
    tag: 'groups',
    body: PatchGroupBody,
    responses: { 200: GroupView },
    audit: { action: 'group.update', resource: groupResource },
    async handler(call, ctx) {
      return { status: 200, body: await ctx.governance.directory.patch(call.params.name!, checkBody(PatchGroupBody, call.body)) };
    },
  },
  {
    method: 'DELETE',
    path: '/groups/{name}',
    operationId: 'deleteGroup',
    summary: 'Delete a group (409 while keys are bound to it)',
    tag: 'groups',
    responses: { 200: GroupView },
    audit: { action: 'group.delete', resource: groupResource },
    async handler(call, ctx) {
      return { status: 200, body: await ctx.governance.directory.delete(call.params.name!) };
    },
  },
];
