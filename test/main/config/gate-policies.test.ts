// The route-policy series main registers for a pool's gates: every gate, every hook their
// on_error chains reach (loops stop), `first` when a chain ends in it, each 4xx per hook and
// (reject, 503) when a chain ends in `reject`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompiledHook, CompiledOnError } from '../../../src/shared/config/compiled.js';
import { gatePolicies } from '../../../src/main/config/compile-metrics.js';

function gate(name: string, onError: CompiledOnError): CompiledHook {
  return { name, kind: 'gate', onError } as CompiledHook;
}

test('a pool without gates has no gate policies', () => {
  assert.deepEqual(gatePolicies([], []), { selections: [], rejections: [] });
});

test('gates, their fallback chains and the terminals they end in', () => {
  const hooks = [
    gate('a', { hook: 1 }),
    gate('b', { terminal: 'first' }),
    gate('c', { terminal: 'reject' }),
    gate('loop-1', { hook: 4 }),
    gate('loop-2', { hook: 3 }),
    gate('unused', { terminal: 'first' }),
  ];
  const p = gatePolicies(hooks, [0, 2, 3]);
  assert.deepEqual(p.selections, ['a', 'b', 'c', 'loop-1', 'loop-2', 'first']);
  assert.equal(p.rejections.length, 5 * 100 + 1);
  assert.deepEqual(
    p.rejections.filter(([policy]) => policy === 'a').map(([, status]) => status),
    Array.from({ length: 100 }, (_, i) => 400 + i),
  );
  assert.deepEqual(p.rejections.at(-1), ['reject', 503]);
  assert.equal(
    p.rejections.some(([policy]) => policy === 'unused'),
    false,
  );
});

test('weighted and nothing terminals add no policy of their own', () => {
  const p = gatePolicies([gate('w', { terminal: 'weighted' }), gate('n', { terminal: 'nothing' })], [0, 1]);
  assert.deepEqual(p.selections, ['w', 'n']);
  assert.equal(p.rejections.length, 200);
});
