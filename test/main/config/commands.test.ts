import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { bootDiagnostic, runPrintMetadataBlocklist, runValidate } from '../../../src/main/config/commands.js';
import type { LoadResult } from '../../../src/main/config/load.js';
import { BUILTIN_METADATA_HOSTS } from '../../../src/shared/config/metadata-hosts.js';
import { configDir, listing, minimalConfig, minimalProviders, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function validate(files: Record<string, unknown>, safeMode = false) {
  const dir = configDir(files);
  const out = capture();
  const err = capture();
  const before = listing(dir);
  const code = await runValidate({ configPath: join(dir, 'gateway.yaml'), safeMode }, out.stream, err.stream);
  return { code, out: out.text(), err: err.text(), before, after: listing(dir) };
}

describe('runValidate', () => {
  it('exits 0 with "config OK" for a valid config and writes nothing', async () => {
    const run = await validate({ 'gateway.yaml': minimalConfig(), 'providers.yaml': minimalProviders() });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /config OK\n$/);
    assert.deepEqual(run.after, run.before);
  });

  it('exits 1 with every error, one per line, and a count', async () => {
    const config = minimalConfig();
    config.models.m1.provider = 'ghost';
    config.pools.main.members.push({ model: 'x' });
    const run = await validate({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
    assert.equal(run.code, 1);
    const lines = run.err.split('\n');
    assert.ok(
      lines.some((line) => line.startsWith('models.m1.provider: unknown provider "ghost"')),
      run.err,
    );
    assert.ok(
      lines.some((line) => line.startsWith('pools.main.members[1].model: unknown model "x"')),
      run.err,
    );
    assert.match(run.out, /\n2 error\(s\)\n$/);
    assert.deepEqual(run.after, run.before);
  });

  it('prints notes: an unset ${VAR} is a note, not a failure', async () => {
    const config = minimalConfig();
    config.models.m1.upstream_model = '${SURELY_UNSET_MODEL_VARIABLE}';
    const run = await validate({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /note: models\.m1\.upstream_model: environment variable SURELY_UNSET_MODEL_VARIABLE is not set/);
  });

  it('a failing file: secret reference exits 1', async () => {
    const config = minimalConfig();
    config.auth = { chain: ['keys'], signing_key: { file: 'missing-key.pem' } };
    const run = await validate({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
    assert.equal(run.code, 1);
    assert.match(run.err, /auth\.signing_key: cannot read .*missing-key\.pem/);
  });

  it('does not create the overlay or touch an existing one, with or without safe mode', async () => {
    const files = { 'gateway.yaml': minimalConfig(), 'providers.yaml': minimalProviders(), 'gateway-overlay.json': JSON.stringify({ settings: {} }) };
    for (const safeMode of [false, true]) {
      const run = await validate(files, safeMode);
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(run.after, run.before);
    }
  });
});

describe('runPrintMetadataBlocklist', () => {
  it('prints the built-in set plus blocked hosts, never subtracting allow lists', async () => {
    const config = minimalConfig();
    config.security = { blocked_metadata_hosts: ['Metadata.Example.'], allow_metadata_hosts: ['169.254.169.254'], allow_all_metadata: true };
    const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
    const out = capture();
    const err = capture();
    const code = await runPrintMetadataBlocklist({ configPath: join(dir, 'gateway.yaml') }, out.stream, err.stream);
    assert.equal(code, 0);
    assert.equal(err.text(), '');
    assert.deepEqual(out.text().trimEnd().split('\n'), [...BUILTIN_METADATA_HOSTS, 'metadata.example']);
  });

  it('without a readable config: the built-in set and a notice on stderr', async () => {
    const dir = configDir({});
    const out = capture();
    const err = capture();
    const code = await runPrintMetadataBlocklist({ configPath: join(dir, 'absent.yaml') }, out.stream, err.stream);
    assert.equal(code, 0);
    assert.deepEqual(out.text().trimEnd().split('\n'), [...BUILTIN_METADATA_HOSTS]);
    assert.match(err.text(), /built-in metadata denylist only/);
  });
});

describe('bootDiagnostic', () => {
  const result = (errors: string[]) => ({ errors }) as unknown as LoadResult;
  it('names the first error and how many more', () => {
    assert.equal(bootDiagnostic(result(['a: x'])), 'gateway: cannot start: a: x');
    assert.equal(bootDiagnostic(result(['a: x', 'b: y', 'c: z'])), 'gateway: cannot start: a: x (and 2 more; run gateway --validate)');
  });
});
