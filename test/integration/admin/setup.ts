// A gateway for the admin-plane tests: the mock provider upstream, the operator token from an
// environment variable, a mutable config with its overlay in the temp dir (or locked), and the
// typed admin client (every response checked against the OpenAPI document and for secrets).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { MockServer } from '../../../src/mock/server.js';
import { adminClient, type AdminClient } from '../../helpers/admin-client.js';
import { startGateway, type GatewayFiles, type RunningGateway } from '../../helpers/gateway.js';
import { startStack } from '../../helpers/clients/stack.js';

export const TOKEN_ENV = 'GATEWAY_TEST_ADMIN_TOKEN';

export interface AdminFixture {
  mock: MockServer;
  files: GatewayFiles;
  token: string;
  providerKey: string;
  env: NodeJS.ProcessEnv;
  config: Record<string, unknown>;
  gw: RunningGateway;
  admin: AdminClient;
  /** Stop the gateway (if running) and start it again on the same files. */
  restart(extraEnv?: NodeJS.ProcessEnv): Promise<void>;
  overlay(): Record<string, unknown>;
  close(): Promise<void>;
}

const PROVIDER_KEY_ENV = 'GATEWAY_TEST_PROVIDER_KEY';

export async function adminFixture(
  opts: { locked?: boolean; open?: boolean; over?: Record<string, unknown>; env?: NodeJS.ProcessEnv } = {},
): Promise<AdminFixture> {
  const token = `adm-${randomBytes(12).toString('hex')}`;
  // A provider credential too: no admin read may show it.
  const providerKey = `sk-${randomBytes(12).toString('hex')}`;
  const env = { [TOKEN_ENV]: token, [PROVIDER_KEY_ENV]: providerKey, ...opts.env };
  let config: Record<string, unknown> = {};
  const stack = await startStack({
    over: {
      auth: opts.open === true ? { chain: [], admin_auth: [] } : { chain: [], admin_auth: ['admin-tokens'], admin_token: { env: TOKEN_ENV } },
      config: opts.locked === true ? { locked: true } : { locked: false, overlay: { file: 'overlay.json' } },
      ...opts.over,
    },
    edit: (made) => {
      (made.providers['mock-openai'] as Record<string, unknown>).auth = { mode: 'bearer', key: { env: PROVIDER_KEY_ENV } };
      config = made.config;
    },
    env,
  });
  const { mock, files } = stack;
  const fixture: AdminFixture = {
    mock,
    files,
    token,
    providerKey,
    env,
    config,
    gw: stack.gateway,
    admin: undefined as unknown as AdminClient,
    async restart(extraEnv = {}) {
      await fixture.gw.stop();
      fixture.gw = await startGateway(files, { env: { ...env, ...extraEnv } });
      fixture.admin = adminClient(fixture.gw.adminUrl, { token, secrets: [providerKey] });
    },
    overlay: () => JSON.parse(readFileSync(join(files.dir, 'overlay.json'), 'utf8')) as Record<string, unknown>,
    async close() {
      await fixture.gw.stop();
      await stack.close();
      await rm(files.dir, { recursive: true, force: true });
    },
  };
  fixture.admin = adminClient(fixture.gw.adminUrl, { token, secrets: [providerKey] });
  return fixture;
}

/** The deployment config file as the gateway runs it (ports set by startGateway), for POST /config/apply. */
export function liveConfig(f: AdminFixture): Record<string, unknown> {
  return parseYaml(readFileSync(f.files.configPath, 'utf8')) as Record<string, unknown>;
}
