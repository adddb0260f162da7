// The effort <-> budget table (docs/compatibility.md, "Reasoning settings").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REASONING_EFFORTS } from '../../../src/shared/model/types.js';
import { EFFORT_BUDGET_TOKENS, effortOf, effortOfBudget, reasoningOff, threeLevelEffort } from '../../../src/shared/model/reasoning.js';

describe('reasoning: effort levels and token budgets', () => {
  it('effort -> budget -> effort is the identity', () => {
    for (const e of REASONING_EFFORTS) assert.equal(effortOfBudget(EFFORT_BUDGET_TOKENS[e]), e);
  });
  it('a budget rounds down to the highest level it covers, never below minimal, 0 is off', () => {
    assert.equal(effortOfBudget(0), 'none');
    assert.equal(effortOfBudget(1), 'minimal');
    assert.equal(effortOfBudget(2047), 'minimal');
    assert.equal(effortOfBudget(4096), 'low');
    assert.equal(effortOfBudget(8192), 'medium');
    assert.equal(effortOfBudget(20000), 'high');
    assert.equal(effortOfBudget(1_000_000), 'max');
  });
  it('settings as a level; on without either is the default level', () => {
    assert.equal(effortOf({ budgetTokens: 16384 }), 'high');
    assert.equal(effortOf({}), 'medium');
    assert.ok(reasoningOff({ effort: 'none' }) && reasoningOff({ budgetTokens: 0 }) && !reasoningOff({}));
  });
  it('three-level vendors: minimal is low, xhigh and max are high', () => {
    assert.deepEqual(REASONING_EFFORTS.map(threeLevelEffort), ['low', 'low', 'low', 'medium', 'high', 'high', 'high']);
  });
});
