import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_METADATA_HOSTS, isDeniedMetadataHost, metadataDenylist } from '../../../src/shared/config/metadata-hosts.js';
import { canonicalHost } from '../../../src/shared/egress/canonical-host.js';

const none = { blocked: [], allowed: [], allowAll: false };

describe('metadata hosts', () => {
  it('built-in entries are canonical and unique', () => {
    for (const host of BUILTIN_METADATA_HOSTS) assert.equal(canonicalHost(host), host);
    assert.equal(new Set(BUILTIN_METADATA_HOSTS).size, BUILTIN_METADATA_HOSTS.length);
  });

  it('normalizes spellings of the same host', () => {
    assert.equal(canonicalHost('2852039166'), '169.254.169.254');
    assert.equal(canonicalHost('0xA9FEA9FE'), '169.254.169.254');
    assert.equal(canonicalHost('[::ffff:169.254.169.254]'), '169.254.169.254');
    assert.equal(canonicalHost('FD00:EC2:0::254'), 'fd00:ec2::254');
    assert.equal(canonicalHost('Metadata.Google.Internal.'), 'metadata.google.internal');
    // The IPv6 forms that carry an IPv4 address: the one function validation and connect share.
    assert.equal(canonicalHost('[::a9fe:a9fe]'), '169.254.169.254');
    assert.equal(canonicalHost('[::169.254.169.254]'), '169.254.169.254');
    assert.equal(canonicalHost('[64:ff9b::a9fe:a9fe]'), '169.254.169.254');
    assert.equal(canonicalHost('[64:ff9b::169.254.169.254]'), '169.254.169.254');
    assert.equal(canonicalHost('[0:0:0:0:0:ffff:a9fe:a9fe]'), '169.254.169.254');
    assert.equal(canonicalHost('[::1]'), '::1');
    assert.equal(canonicalHost('[::]'), '::');
  });

  it('refuses the IPv4-compatible and NAT64 spellings of a metadata address', () => {
    for (const host of ['[::a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]', '::a9fe:aa02']) {
      assert.equal(isDeniedMetadataHost(host, none), true, host);
    }
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
