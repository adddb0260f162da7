import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_METADATA_HOSTS, isDeniedMetadataHost, metadataDenylist, normalizeHost } from '../../../src/shared/config/metadata-hosts.js';

const none = { blocked: [], allowed: [], allowAll: false };

describe('metadata hosts', () => {
  it('built-in entries are canonical and unique', () => {
    for (const host of BUILTIN_METADATA_HOSTS) assert.equal(normalizeHost(host), host);
    assert.equal(new Set(BUILTIN_METADATA_HOSTS).size, BUILTIN_METADATA_HOSTS.length);
  });

  it('normalizes spellings of the same host', () => {
    assert.equal(normalizeHost('2852039166'), '169.254.169.254');
    assert.equal(normalizeHost('0xA9FEA9FE'), '169.254.169.254');
    assert.equal(normalizeHost('[::ffff:169.254.169.254]'), '169.254.169.254');
    assert.equal(normalizeHost('FD00:EC2:0::254'), 'fd00:ec2::254');
    assert.equal(normalizeHost('Metadata.Google.Internal.'), 'metadata.google.internal');
  });

  it('denies unless allowed', () => {
    assert.equal(isDeniedMetadataHost('169.254.169.254', none), true);
    assert.equal(isDeniedMetadataHost('api.openai.com', none), false);
    assert.equal(isDeniedMetadataHost('169.254.169.254', { ...none, allowed: ['169.254.169.254'] }), false);
    assert.equal(isDeniedMetadataHost('169.254.169.254', none, ['2852039166']), false);
    assert.equal(isDeniedMetadataHost('169.254.169.254', { ...none, allowAll: true }), false);
    assert.equal(isDeniedMetadataHost('meta.example', { ...none, blocked: ['META.example'] }), true);
  });

  it('the denylist adds configured hosts without duplicates', () => {
    assert.deepEqual(metadataDenylist(['169.254.169.254', 'x.example']), [...BUILTIN_METADATA_HOSTS, 'x.example']);
  });
});
