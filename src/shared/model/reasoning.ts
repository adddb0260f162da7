// The one table between reasoning effort levels and thinking-token budgets, used wherever a
// caller speaks one and the lane the other (docs/compatibility.md, "Reasoning settings").
// Effort -> budget is the table; budget -> effort rounds down to the highest level whose
// budget fits (a budget under the `minimal` row is still `minimal`, never off), so
// effort -> budget -> effort is the identity and budget -> effort -> budget is not.
import type { ReasoningEffort, ReasoningSettings } from './types.js';

/** Thinking-token budget of each effort level. */
export const EFFORT_BUDGET_TOKENS: Readonly<Record<ReasoningEffort, number>> = Object.freeze({
  none: 0,
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
  max: 32768,
});

/** Levels with a budget, smallest first. */
const LEVELS_ON: readonly ReasoningEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/** The effort a caller means by "reasoning on, at the provider's default" (OpenAI's default level). */
const DEFAULT_EFFORT: ReasoningEffort = 'medium';

export function effortOfBudget(budgetTokens: number): ReasoningEffort {
  if (budgetTokens <= 0) return 'none';
  let level: ReasoningEffort = 'minimal';
  for (const l of LEVELS_ON) if (EFFORT_BUDGET_TOKENS[l] <= budgetTokens) level = l;
  return level;
}

/** Whether the settings turn reasoning off (effort `none` or a zero budget). */
export function reasoningOff(r: ReasoningSettings): boolean {
  return r.effort === 'none' || r.budgetTokens === 0;
}

/** The settings as an effort level: the caller's, else its budget's row, else the default. */
export function effortOf(r: ReasoningSettings): ReasoningEffort {
  if (r.effort !== undefined) return r.effort;
  if (r.budgetTokens !== undefined) return effortOfBudget(r.budgetTokens);
  return DEFAULT_EFFORT;
}

/** Levels the vendors with fewer levels take: `minimal` -> `low`, `xhigh` and `max` -> `high`. */
export function threeLevelEffort(effort: ReasoningEffort): 'low' | 'medium' | 'high' {
  if (effort === 'minimal' || effort === 'low' || effort === 'none') return 'low';
  return effort === 'medium' ? 'medium' : 'high';
}
