// The OpenAPI document: valid OpenAPI 3.1 (a real validator), served unauthenticated at
// GET /openapi.json exactly as the build wrote docs/openapi.json, with the spec's version,
// title and security schemes. Also the reads not covered elsewhere (info, auth, plugins) and
// config.locked refusing every config mutation, each through the contract-checked client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { adminClient } from '../../helpers/admin-client.js';
import { ADMIN_OPENAPI } from '../../helpers/admin-contract.js';
import { adminFixture, liveConfig, type AdminFixture } from './setup.js';

describe('admin OpenAPI document', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture({ locked: true });
  });
  after(async () => {
    await f.close();
  });

  it('docs/openapi.json passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(ADMIN_OPENAPI as never);
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('gives every titled schema one meaning (no two resource files declare different views under one name)', async () => {
    const { openApiDocument, TITLE_CLASHES } = await import('../../../src/main/admin/openapi-document.js');
    const { ADMIN_ROUTES } = await import('../../../src/main/admin/routes.js');
    openApiDocument(ADMIN_ROUTES as never);
    assert.deepEqual([...TITLE_CLASHES], []);
  });

  it('names version 1.4.1, an admin API title, x-admin-token and bearer security, the error envelope', () => {
    const info = ADMIN_OPENAPI.info as { version: string; title: string };
    assert.equal(info.version, '1.4.1');
    assert.match(info.title, /admin API/);
    const components = ADMIN_OPENAPI.components as { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    assert.deepEqual(components.securitySchemes.adminToken, {
      type: 'apiKey',
      in: 'header',
      name: 'x-admin-token',
      description: 'The operator token (admin-tokens module).',
    });
    assert.equal((components.securitySchemes.bearerAuth as { scheme: string }).scheme, 'bearer');
    for (const name of ['ErrorEnvelope', 'InfoView', 'AuditPage', 'ConfigVersionPage', 'PluginPage', 'EffectiveConfigView', 'AdminAuthPutView'])
      assert.ok(name in components.schemas, name);
  });

  it('declares the 405 every path answers for another method, with its Allow header, and 413 on every body (issue 46)', async () => {
    const components = ADMIN_OPENAPI.components as { responses: Record<string, { headers?: Record<string, unknown> }> };
    assert.ok(components.responses.MethodNotAllowed!.headers!.Allow, 'the Allow header is declared');
    for (const [path, item] of Object.entries(
      ADMIN_OPENAPI.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }>; requestBody?: unknown }>>,
    )) {
      for (const [method, op] of Object.entries(item)) {
        assert.equal(op.responses['405']?.$ref, '#/components/responses/MethodNotAllowed', `${method} ${path}`);
        if (op.requestBody !== undefined) assert.equal(op.responses['413']?.$ref, '#/components/responses/BodyTooLarge', `${method} ${path}`);
      }
    }
    // An answered 405 matches what the document declares for the path.
    const { checkAdminResponse } = await import('../../helpers/admin-contract.js');
    const wrong = await fetch(`${f.gw.adminUrl}/keys`, { method: 'PUT', headers: { 'x-admin-token': f.token } });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'GET, POST');
    checkAdminResponse('GET', '/keys', 405, await wrong.json());
  });

  it('is served without a credential, equal to the built file', async () => {
    const anon = adminClient(f.gw.adminUrl, { secrets: [f.token, f.providerKey] });
    const { data, response } = await anon.GET('/openapi.json');
    assert.equal(response.status, 200);
    assert.deepEqual(data, ADMIN_OPENAPI);
  });

  it('GET /info: version, build, topology, config_version, persistence', async () => {
    const { data } = await f.admin.GET('/info');
    assert.match(data!.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(data!.build, { auth_modules: ['keys', 'admin-tokens'], hook_plugins: ['socket', 'webhook'], weighted_floor: true });
    assert.equal(data!.topology.models, 6);
    assert.equal(data!.config_version, 0);
    assert.equal(data!.config_persistence, false, 'a locked config has no overlay');
    assert.ok(data!.started_at! > 1_700_000_000);
  });

  it('GET /auth and GET /plugins?type=', async () => {
    assert.deepEqual((await f.admin.GET('/auth')).data, { chain: [], upstream_credentials: 'own', open: true });
    const auth = (await f.admin.GET('/plugins', { params: { query: { type: 'auth' } } })).data!;
    assert.deepEqual(
      auth.items.map((p) => [p.name, p.loader, p.active, p.target]),
      [
        ['admin-tokens', 'compiled-in', true, null],
        ['keys', 'compiled-in', false, null],
      ],
    );
    assert.equal(auth.next_cursor, null);
    const page = (await f.admin.GET('/plugins', { params: { query: { limit: 1 } } })).data!;
    assert.equal(page.items.length, 1);
    assert.notEqual(page.next_cursor, null);
    assert.deepEqual((await f.admin.GET('/plugins', { params: { query: { type: 'hooks' } } })).data!.items, []);
    assert.equal((await f.admin.GET('/plugins', { params: { query: { type: 'other' as never } } })).response.status, 400);
  });

  it('config.locked: every config mutation is 403 forbidden and audited as rejected; reads and reload work', async () => {
    const attempts = [
      () => f.admin.POST('/config/apply', { body: { config: liveConfig(f) } }),
      () => f.admin.POST('/config/rollback', { body: { version: 0 } }),
      () => f.admin.PUT('/config/settings', { body: { tls: { cert: { env: 'A' }, key: { env: 'B' } } } }),
      () => f.admin.PUT('/admin-auth', { body: { modules: [] } }),
    ];
    for (const attempt of attempts) {
      const { error, response } = await attempt();
      assert.equal(response.status, 403);
      assert.equal(error!.error.code, 'forbidden');
      assert.match(error!.error.message, /locked/);
    }
    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 4 } } })).data!.items;
    assert.deepEqual(audit.map((e) => [e.action, e.outcome]).reverse(), [
      ['config.apply', 'rejected'],
      ['config.rollback', 'rejected'],
      ['config.settings', 'rejected'],
      ['admin_auth.update', 'rejected'],
    ]);
    assert.equal((await f.admin.POST('/config/validate', { body: { config: liveConfig(f) } })).data!.ok, true);
    assert.equal((await f.admin.POST('/config/reload')).data!.config_version, 1, 'edit the file, then reload');
  });
});
