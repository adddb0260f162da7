// The deterministic content, the usage rule's building blocks and the settings parser.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MOCK_TOOL_ARGUMENTS, mockChunk, mockChunks, mockText } from '../../src/mock/content.js';
import { textPieces } from '../../src/mock/answer-content.js';
import { DEFAULT_MOCK_SETTINGS, findDirective, setSetting, settingsFrom } from '../../src/mock/settings.js';

describe('mock content', () => {
  it('chunk i is the i-th word and the text is their concatenation', () => {
    assert.equal(mockText(5), 'The quick brown fox jumps');
    assert.equal(mockChunk(0), 'The');
    assert.equal(mockChunk(1), ' quick');
    assert.equal(mockChunk(9), ' The');
    assert.deepEqual(mockChunks(3), ['The', ' quick', ' brown']);
  });

  it('padding is spread over the pieces', () => {
    const padded = mockChunks(3, 7);
    assert.deepEqual(padded, ['Thexxx', ' quickxx', ' brownxx']);
  });

  it('tool arguments split into at most `chunks` non-empty pieces', () => {
    for (const n of [1, 2, 5, 100]) {
      const pieces = textPieces(MOCK_TOOL_ARGUMENTS, n);
      assert.equal(pieces.join(''), MOCK_TOOL_ARGUMENTS);
      assert.ok(pieces.every((p) => p.length > 0));
      assert.equal(pieces.length, Math.min(n, MOCK_TOOL_ARGUMENTS.length));
    }
  });
});

describe('mock settings', () => {
  it('defaults and per-run values', () => {
    assert.equal(DEFAULT_MOCK_SETTINGS.chunks, 5);
    assert.equal(DEFAULT_MOCK_SETTINGS.input_tokens, 12);
    const s = settingsFrom({ chunks: 9, tokens_per_sec: '2.5', require_auth: true, retry_after: '3' });
    assert.equal(s.chunks, 9);
    assert.equal(s.tokens_per_sec, 2.5);
    assert.equal(s.require_auth, true);
    assert.equal(s.retry_after, 3);
  });

  it('bad values name the setting', () => {
    const s = { ...DEFAULT_MOCK_SETTINGS };
    assert.throws(() => setSetting(s, 'status', '302'), /status/);
    assert.throws(() => setSetting(s, 'latency-ms', '-1'), /latency_ms/);
    assert.throws(() => setSetting(s, 'mode', 'both'), /mode.*auto, text, tool/);
    assert.throws(() => setSetting(s, 'colour', 'red'), /unknown mock setting "colour"/);
  });

  it('finds the last directive in a text', () => {
    assert.equal(findDirective('no directive here'), null);
    assert.deepEqual(findDirective('a [mock chunks=50 ttft_ms=20] b'), [
      ['chunks', '50'],
      ['ttft_ms', '20'],
    ]);
    assert.deepEqual(findDirective('[mock chunks=1] then [mock fault=hang]'), [['fault', 'hang']]);
    assert.deepEqual(findDirective('[mock]'), []);
  });
});
