import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig, resolveWorkerThreads } from '../../../src/main/config/load.js';
import { configDir, minimalConfig, minimalProviders, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

async function load(files: Record<string, unknown>, opts: { purpose?: 'boot' | 'validate'; env?: NodeJS.ProcessEnv; safeMode?: boolean } = {}) {
  const dir = configDir(files);
  const result = await loadConfig({
    configPath: join(dir, 'gateway.yaml'),
    safeMode: opts.safeMode ?? false,
    purpose: opts.purpose ?? 'boot',
    env: opts.env ?? {},
  });
  return { dir, result };
}

function withConfig(edit: (config: Record<string, any>) => void): Record<string, unknown> {
  const config = minimalConfig();
  edit(config);
  return { 'gateway.yaml': config, 'providers.yaml': minimalProviders() };
}

function withProvider(edit: (provider: Record<string, any>) => void): Record<string, unknown> {
  const providers = minimalProviders() as { providers: Record<string, any> };
  edit(providers.providers.up);
  return { 'gateway.yaml': minimalConfig(), 'providers.yaml': providers };
}

function hasError(errors: string[], ...parts: string[]): boolean {
  return errors.some((line) => parts.every((part) => line.includes(part)));
}

describe('loadConfig: a good config', () => {
  it('loads the minimal config with defaults filled', async () => {
    const { result } = await load(withConfig(() => {}));
    assert.deepEqual(result.errors, []);
    assert.equal(result.ok, true);
    assert.equal(result.config?.pools.main?.members[0]?.weight, 1);
    assert.equal(result.config?.pools.main.on_exhausted, 'reject');
    assert.equal(result.config?.pools.main.failover.max_hops, 3);
    assert.equal(result.config?.advanced.max_body_bytes, 10 * 1024 * 1024);
    assert.equal(result.catalog?.providers.up?.protocol, 'openai');
    assert.equal(result.configSource, 'file');
    assert.ok(result.warnings.some((line) => line.includes('OPEN RELAY')));
  });
});

describe('loadConfig: boot failures name the culprit', () => {
  it('unset ${VAR}: names the variable and the setting', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models.m1.upstream_model = '${MODEL_NAME}';
      }),
    );
    assert.equal(result.ok, false);
    assert.ok(hasError(result.errors, 'models.m1.upstream_model', 'MODEL_NAME', 'not set'), result.errors.join('\n'));
  });

  it('${VAR} set: substituted; $${ is a literal', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models.m1.upstream_model = 'a-${NAME}-$${x}';
      }),
      { env: { NAME: 'gpt' } },
    );
    assert.deepEqual(result.errors, []);
    assert.equal(result.config?.models.m1?.upstream_model, 'a-gpt-${x}');
  });

  it('unknown provider reference', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models.m1.provider = 'ghost';
      }),
    );
    assert.ok(hasError(result.errors, 'models.m1.provider: unknown provider "ghost"'), result.errors.join('\n'));
  });

  it('unknown protocol', async () => {
    const { result } = await load(
      withProvider((p) => {
        p.protocol = 'grpc';
      }),
    );
    assert.ok(hasError(result.errors, 'providers.up.protocol: unknown protocol "grpc"'), result.errors.join('\n'));
  });

  it('unknown auth mode', async () => {
    const { result } = await load(
      withProvider((p) => {
        p.auth = { mode: 'kerberos' };
      }),
    );
    assert.ok(hasError(result.errors, 'providers.up.auth.mode: unknown auth mode "kerberos"'), result.errors.join('\n'));
  });

  it('auth mode with a field missing, or a field it does not take', async () => {
    const { result } = await load(
      withProvider((p) => {
        p.auth = { mode: 'header', key: 'k', scope: 'x' };
      }),
    );
    assert.ok(hasError(result.errors, 'providers.up.auth.header: required setting is missing'), result.errors.join('\n'));
    assert.ok(hasError(result.errors, 'providers.up.auth.scope: unknown setting'), result.errors.join('\n'));
  });

  it('invalid on_exhausted', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.pools.main.on_exhausted = 'queue';
      }),
    );
    assert.ok(hasError(result.errors, 'pools.main.on_exhausted: invalid on_exhausted "queue"'), result.errors.join('\n'));
  });

  it('fallback_pool naming an unknown pool, and a loop', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.pools.main.on_exhausted = { fallback_pool: 'nowhere' };
        c.pools.a = { members: [{ model: 'm1' }], on_exhausted: { fallback_pool: 'b' } };
        c.pools.b = { members: [{ model: 'm1' }], on_exhausted: { fallback_pool: 'a' } };
      }),
    );
    assert.ok(hasError(result.errors, 'pools.main.on_exhausted.fallback_pool: unknown pool "nowhere"'), result.errors.join('\n'));
    assert.ok(hasError(result.errors, 'pools.a.on_exhausted.fallback_pool: fallback loop: a -> b -> a'), result.errors.join('\n'));
    assert.equal(result.errors.filter((line) => line.includes('loop')).length, 1);
  });

  it('unknown pool member model, with its index', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.pools.main.members.push({ model: 'x' });
      }),
    );
    assert.ok(hasError(result.errors, 'pools.main.members[1].model: unknown model "x"'), result.errors.join('\n'));
  });

  it('a missing overlay folder under a writable one is fine: boot makes it', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.config = { overlay: { file: 'missing-dir/deeper/overlay.json' } };
      }),
    );
    assert.deepEqual(result.errors, []);
  });

  it('mutable config with no writable overlay: the folder would be made under a file', async () => {
    const files = withConfig((c) => {
      c.config = { overlay: { file: 'a-file/missing-dir/overlay.json' } };
    });
    files['a-file'] = 'not a folder';
    const { result } = await load(files);
    assert.ok(
      hasError(result.errors, 'config.overlay.file', 'mutable config with no writable overlay', 'a parent is not a directory'),
      result.errors.join('\n'),
    );
  });

  it('mutable config with no writable overlay: the overlay path is a directory', async () => {
    const files = withConfig((c) => {
      c.config = { overlay: { file: 'state' } };
    });
    files['state/placeholder'] = '';
    const { result } = await load(files);
    assert.ok(hasError(result.errors, 'config.overlay.file', 'mutable config with no writable overlay', 'not a regular file'), result.errors.join('\n'));
  });

  it('a locked config needs no overlay', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.config = { locked: true, overlay: { file: 'missing-dir/overlay.json' } };
      }),
    );
    assert.deepEqual(result.errors, []);
    assert.equal(result.overlayPath, null);
  });

  it('reports every error at once', async () => {
    const files = withConfig((c) => {
      c.models.m1.provider = 'ghost';
      c.pools.main.members.push({ model: 'x' });
      c.pools.main.on_exhausted = 'queue';
      c.listen = 'nonsense';
      c.bogus_section = true;
    });
    (files['providers.yaml'] as any).providers.up.protocol = 'grpc';
    const { result } = await load(files);
    for (const part of [
      'unknown provider "ghost"',
      'unknown model "x"',
      'invalid on_exhausted',
      'listen:',
      'bogus_section: unknown setting',
      'unknown protocol "grpc"',
    ]) {
      assert.ok(hasError(result.errors, part), `missing ${part} in:\n${result.errors.join('\n')}`);
    }
  });

  it('bad YAML names the file and line', async () => {
    const { result } = await load({ 'gateway.yaml': 'listen: [unclosed\n', 'providers.yaml': minimalProviders() });
    assert.equal(result.ok, false);
    assert.match(result.errors[0]!, /gateway\.yaml:\d+:\d+: invalid YAML/);
  });

  it('a missing config file', async () => {
    const dir = configDir({});
    const result = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env: {} });
    assert.equal(result.ok, false);
    assert.match(result.errors[0]!, /gateway\.yaml: cannot read: ENOENT/);
  });
});

describe('loadConfig: validate mode', () => {
  it('an unset ${VAR} is a note, and errors downstream of it are dropped', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models.m1.provider = '${PROVIDER_NAME}';
      }),
      { purpose: 'validate' },
    );
    assert.deepEqual(result.errors, []);
    assert.equal(result.ok, true);
    assert.ok(
      result.notes.some((line) => line.includes('models.m1.provider') && line.includes('PROVIDER_NAME')),
      result.notes.join('\n'),
    );
  });

  it('at boot, the unset variable is the only error at that setting', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models.m1.provider = '${PROVIDER_NAME}';
      }),
    );
    assert.deepEqual(result.errors.filter((line) => line.startsWith('models.m1.provider')).length, 1);
  });

  it('secret-plugin references are a note under validate, an error at boot', async () => {
    const edit = (c: Record<string, any>) => {
      c.auth = { admin_auth: ['admin-tokens'], admin_token: { module: 'vault', settings: { path: 'x' } } };
    };
    const validate = await load(withConfig(edit), { purpose: 'validate' });
    assert.deepEqual(validate.result.errors, []);
    assert.ok(validate.result.notes.some((line) => line.includes('auth.admin_token') && line.includes('vault')));
    const boot = await load(withConfig(edit));
    assert.ok(hasError(boot.result.errors, 'auth.admin_token', 'secret plugin modules are not available in this build'));
  });
});

describe('loadConfig: secrets', () => {
  it('env and file references resolve; relative files against the config folder', async () => {
    const files = withConfig((c) => {
      c.auth = { admin_auth: ['admin-tokens'], admin_token: { env: 'ADMIN' }, chain: ['keys'], signing_key: { file: 'secrets/signing.pem' } };
    });
    files['secrets/signing.pem'] = 'the-key\n';
    const { result } = await load(files, { env: { ADMIN: 'tok' } });
    assert.deepEqual(result.errors, []);
    assert.equal(result.secrets.get('auth.admin_token'), 'tok');
    assert.equal(result.adminToken, 'tok');
    assert.equal(result.secrets.get('auth.signing_key'), 'the-key');
  });

  it('an unset env reference or missing file is an error naming the setting, never the value', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.auth = { admin_auth: ['admin-tokens'], admin_token: { env: 'ADMIN' }, chain: ['keys'], signing_key: { file: 'nope.pem' } };
      }),
      { purpose: 'validate' },
    );
    assert.ok(hasError(result.errors, 'auth.admin_token: environment variable ADMIN is not set'));
    assert.ok(hasError(result.errors, 'auth.signing_key: cannot read', 'nope.pem'));
  });

  it('a chain needing a secret that is not configured', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.auth = { chain: ['keys'], admin_auth: ['admin-tokens'] };
      }),
    );
    assert.ok(hasError(result.errors, 'auth.signing_key: required'));
    assert.ok(hasError(result.errors, 'auth.admin_token: required'));
  });

  it('an empty provider key warns and loads', async () => {
    const { result } = await load(
      withProvider((p) => {
        p.auth = { mode: 'bearer', key: { env: 'UP_KEY' } };
      }),
      { env: { UP_KEY: '' } },
    );
    assert.deepEqual(result.errors, []);
    assert.equal(result.secrets.get('providers.up.auth.key'), '');
    assert.ok(result.warnings.some((line) => line.includes('providers.up.auth.key') && line.includes('UP_KEY') && line.includes('fails auth on use')));
  });

  it('a service-account JSON that does not parse is an error without its content', async () => {
    const files = withProvider((p) => {
      p.auth = { mode: 'jwt-bearer', scope: 's', service_account: { file: 'sa.json' } };
    });
    files['sa.json'] = '{"client_email": "a@b", "private_key": "SECRET-NOT-A-KEY"}';
    const { result } = await load(files);
    assert.ok(hasError(result.errors, 'providers.up.auth.service_account', 'private_key'));
    assert.ok(!result.errors.join('\n').includes('SECRET-NOT-A-KEY'));
  });
});

describe('loadConfig: cloud-metadata SSRF guard', () => {
  const at = (host: string) =>
    withProvider((p) => {
      p.base_url = `http://${host}/v1`;
    });

  it('refuses a metadata host, in any spelling', async () => {
    for (const host of ['169.254.169.254', '2852039166', '[fd00:ec2::254]', 'METADATA.google.internal.']) {
      const { result } = await load(at(host));
      assert.ok(hasError(result.errors, 'providers.up.base_url', 'cloud-metadata'), `${host}: ${result.errors.join('\n')}`);
    }
  });

  it('the provider allow list, the global allow list and allow_all let it through', async () => {
    const own = withProvider((p) => {
      p.base_url = 'http://169.254.169.254/';
      p.allow_metadata_hosts = ['169.254.169.254'];
    });
    assert.deepEqual((await load(own)).result.errors, []);
    const global = at('169.254.169.254');
    (global['gateway.yaml'] as any).security = { allow_metadata_hosts: ['169.254.169.254'] };
    assert.deepEqual((await load(global)).result.errors, []);
    const all = at('169.254.169.254');
    (all['gateway.yaml'] as any).security = { allow_all_metadata: true };
    assert.deepEqual((await load(all)).result.errors, []);
  });

  it('refuses every other address the gateway calls: hook webhook, request-log webhook, IdP issuer (issue 15)', async () => {
    const hook = withConfig((c) => {
      c.hooks = { h: { webhook: 'http://0xa9fea9fe/hook' } };
    });
    assert.ok(hasError((await load(hook)).result.errors, 'hooks.h.webhook', 'cloud-metadata'), (await load(hook)).result.errors.join('\n'));
    const sink = withConfig((c) => {
      c.logs = { webhook: { url: 'http://[::ffff:169.254.169.254]/logs' } };
    });
    assert.ok(hasError((await load(sink)).result.errors, 'logs.webhook.url', 'cloud-metadata'), (await load(sink)).result.errors.join('\n'));
    const allowed = withConfig((c) => {
      c.logs = { webhook: { url: 'http://169.254.169.254/logs' } };
      c.security = { allow_metadata_hosts: ['169.254.169.254'] };
    });
    assert.ok(!hasError((await load(allowed)).result.errors, 'cloud-metadata'));
  });

  it('refuses the IPv4-compatible and NAT64 spellings the connect-time guard refuses (issue 46)', async () => {
    for (const host of ['[::a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]']) {
      const { result } = await load(at(host));
      assert.ok(hasError(result.errors, 'providers.up.base_url', 'cloud-metadata'), `${host}: ${result.errors.join('\n')}`);
      const hook = withConfig((c) => {
        c.hooks = { h: { webhook: `http://${host}/hook` } };
      });
      assert.ok(hasError((await load(hook)).result.errors, 'hooks.h.webhook', 'cloud-metadata'), `${host}: ${(await load(hook)).result.errors.join('\n')}`);
    }
  });

  it('refuses a webhook URL that does not parse (issue 46)', async () => {
    for (const webhook of ['http://a:99999/hook', 'http://[::1/hook', 'http://exa mple/hook', 'https://']) {
      const hook = withConfig((c) => {
        c.hooks = { h: { webhook } };
      });
      assert.ok(hasError((await load(hook)).result.errors, 'hooks.h.webhook', 'URL'), `${webhook}: ${(await load(hook)).result.errors.join('\n')}`);
    }
  });

  it('security.blocked_metadata_hosts adds hosts', async () => {
    const files = at('metadata.internal.example');
    (files['gateway.yaml'] as any).security = { blocked_metadata_hosts: ['metadata.internal.example'] };
    assert.ok(hasError((await load(files)).result.errors, 'providers.up.base_url', 'cloud-metadata'));
  });
});

describe('loadConfig: deprecated variables', () => {
  it('each one warns exactly once and is honoured', async () => {
    const files = { 'gateway.yaml': minimalConfig(), 'other-providers.yaml': minimalProviders(), 'state/.keep': '' };
    const env = {
      GATEWAY_PROVIDERS: 'other-providers.yaml',
      GATEWAY_CONFIG_OVERLAY: 'state/overlay.json',
      GATEWAY_UPSTREAM_HTTP1_ONLY: 'true',
    };
    const { dir, result } = await load(files, { env });
    assert.deepEqual(result.errors, []);
    assert.equal(result.providersPath, join(dir, 'other-providers.yaml'));
    assert.equal(result.overlayPath, join(dir, 'state/overlay.json'));
    assert.equal(result.processOverrides.upstreamHttp1Only, true);
    for (const name of Object.keys(env)) {
      assert.equal(result.warnings.filter((line) => line.includes(name)).length, 1, `${name}: ${result.warnings.join('\n')}`);
    }
  });

  it('the config file wins over a deprecated variable, and the warning says so', async () => {
    const files = withConfig((c) => {
      c.advanced = { upstream_h2_prior_knowledge: false };
    });
    const { result } = await load(files, { env: { GATEWAY_UPSTREAM_H2_PRIOR_KNOWLEDGE: '1', GATEWAY_PROVIDERS: 'elsewhere.yaml' } });
    assert.equal(result.processOverrides.upstreamH2PriorKnowledge, undefined);
    assert.ok(result.warnings.some((line) => line.includes('GATEWAY_UPSTREAM_H2_PRIOR_KNOWLEDGE') && line.includes('ignored')));
    // providers_file is not in the file, so GATEWAY_PROVIDERS is honoured (and the file is missing).
    assert.ok(hasError(result.errors, 'elsewhere.yaml', 'cannot read'));
  });

  it('worker threads: config, then the deprecated GATEWAY_WORKER_THREADS with a warning, then the TOKIO_WORKER_THREADS fallback without one, then one per core (issue 46)', () => {
    assert.deepEqual(resolveWorkerThreads({ advanced: { worker_threads: 3 } }, {}), { count: 3 });
    assert.deepEqual(resolveWorkerThreads({ advanced: {} }, { TOKIO_WORKER_THREADS: '5' }), { count: 5 }, 'the documented fallback: no warning');
    assert.deepEqual(
      resolveWorkerThreads({ advanced: { worker_threads: 4 } }, { TOKIO_WORKER_THREADS: '5' }),
      { count: 4 },
      'the config overrides the fallback, silently',
    );
    const both = resolveWorkerThreads(undefined, { GATEWAY_WORKER_THREADS: '2', TOKIO_WORKER_THREADS: '5' });
    assert.equal(both.count, 2);
    assert.match(both.warning ?? '', /GATEWAY_WORKER_THREADS is deprecated.*wins over TOKIO_WORKER_THREADS/);
    assert.doesNotMatch(both.warning ?? '', /TOKIO_WORKER_THREADS is deprecated/);
    const overridden = resolveWorkerThreads({ advanced: { worker_threads: 4 } }, { GATEWAY_WORKER_THREADS: '2' });
    assert.equal(overridden.count, 4);
    assert.match(overridden.warning ?? '', /ignored/);
    const garbage = resolveWorkerThreads(undefined, { GATEWAY_WORKER_THREADS: 'lots' });
    assert.ok(garbage.count >= 1);
    assert.match(garbage.warning ?? '', /not an integer/);
    const badFallback = resolveWorkerThreads(undefined, { TOKIO_WORKER_THREADS: '0' });
    assert.match(badFallback.warning ?? '', /TOKIO_WORKER_THREADS is not an integer/);
    assert.equal(resolveWorkerThreads(undefined, { GATEWAY_WORKER_THREADS: 'x', TOKIO_WORKER_THREADS: '3' }).count, 3);
    assert.equal(resolveWorkerThreads(undefined, {}).warning, undefined);
  });
});

describe('loadConfig: overlay and safe mode', () => {
  function overlayFiles(): Record<string, unknown> {
    const applied = minimalConfig();
    applied.models.m2 = { provider: 'up', upstream_model: 'from-overlay' };
    applied.pools.main.members = [{ model: 'm2' }];
    return { ...withConfig(() => {}), 'gateway-overlay.json': JSON.stringify({ config: applied, settings: {} }) };
  }

  it('the overlay config replaces the file config', async () => {
    const { result } = await load(overlayFiles());
    assert.deepEqual(result.errors, []);
    assert.equal(result.configSource, 'overlay');
    assert.equal(result.config?.models.m2?.upstream_model, 'from-overlay');
  });

  it('safe mode ignores the overlay and says so', async () => {
    const { result } = await load(overlayFiles(), { safeMode: true });
    assert.deepEqual(result.errors, []);
    assert.equal(result.configSource, 'file');
    assert.equal(result.config?.models.m2, undefined);
    assert.ok(result.warnings.some((line) => line.includes('safe mode') && line.includes('overlay')));
  });

  it('a broken overlay stops boot; safe mode gets past it', async () => {
    const files = { ...withConfig(() => {}), 'gateway-overlay.json': '{ not json' };
    assert.ok(hasError((await load(files)).result.errors, 'gateway-overlay.json', 'not valid JSON'));
    assert.deepEqual((await load(files, { safeMode: true })).result.errors, []);
  });

  it('a proposed document replaces the config; bootstrap settings stay from the file', async () => {
    const dir = configDir(
      withConfig((c) => {
        c.config = { locked: false };
      }),
    );
    const document = minimalConfig();
    document.config = { locked: true };
    document.models.m1.upstream_model = 'proposed';
    const result = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env: {}, document });
    assert.deepEqual(result.errors, []);
    assert.equal(result.configSource, 'document');
    assert.equal(result.config?.models.m1?.upstream_model, 'proposed');
    assert.equal(result.config?.config.locked, false);
  });

  it('overlay TLS settings merge over the file', async () => {
    const files = {
      ...withConfig((c) => {
        c.tls = { cert: 'a.pem', key: 'b.pem' };
      }),
      'gateway-overlay.json': JSON.stringify({ settings: { tls: { cert: 'c.pem' } } }),
    };
    const { result } = await load(files);
    assert.ok(hasError(result.errors, 'tls.cert', 'c.pem'));
    assert.ok(hasError(result.errors, 'tls.key', 'b.pem'));
  });
});

describe('loadConfig: other checks', () => {
  it('listen must be host:port and differ from admin_listen', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.listen = '127.0.0.1:8081';
      }),
    );
    assert.ok(hasError(result.errors, 'admin_listen: must differ from listen'));
    const bad = await load(
      withConfig((c) => {
        c.listen = 'localhost:99999';
      }),
    );
    assert.ok(hasError(bad.result.errors, 'listen: port 99999 is out of range'));
  });

  it('key_ttl must be a duration', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.auth = { key_ttl: '90 days' };
      }),
    );
    assert.ok(hasError(result.errors, 'auth.key_ttl', 'duration'));
  });

  it('reserved hook names and unknown global hooks', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.hooks = { first: {} };
        c.global_hooks = ['ghost'];
      }),
    );
    assert.ok(hasError(result.errors, 'hooks.first', 'reserved'));
    assert.ok(hasError(result.errors, 'global_hooks[0]: unknown hook "ghost"'));
  });

  it('a prometheus export needs buffer_seconds', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.export = { metrics: { module: 'prometheus' } };
      }),
    );
    assert.ok(hasError(result.errors, 'export.metrics.settings.buffer_seconds'));
  });

  it('model names that are not plain words are bracketed in paths', async () => {
    const { result } = await load(
      withConfig((c) => {
        c.models['gpt-4.1'] = { provider: 'ghost' };
      }),
    );
    assert.ok(hasError(result.errors, 'models["gpt-4.1"].provider: unknown provider "ghost"'), result.errors.join('\n'));
  });
});
