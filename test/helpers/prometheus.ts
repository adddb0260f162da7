// Reading a /metrics exposition the way Prometheus would: a real text-format parser, and
// `promtool check metrics` (parser + lint) where the machine has promtool.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

interface ParsedSample {
  value?: string;
  labels?: Record<string, string>;
}

export interface ParsedFamily {
  name: string;
  help: string;
  /** Upper case, e.g. `COUNTER`. */
  type: string;
  metrics: ParsedSample[];
}

// The package ships no type declarations; its CommonJS entry is one function.
const parsePrometheusTextFormat = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => ParsedFamily[];

/** Parses the exposition; throws on text a Prometheus parser rejects. */
export function parseExposition(text: string): Map<string, ParsedFamily> {
  const families = new Map<string, ParsedFamily>();
  for (const family of parsePrometheusTextFormat(text)) families.set(family.name, family);
  return families;
}

/** The value of the sample of `family` whose labels are exactly `labels`; undefined if absent. */
export function sampleValue(families: Map<string, ParsedFamily>, family: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const sample of families.get(family)?.metrics ?? []) {
    if (JSON.stringify(Object.entries(sample.labels ?? {}).sort()) === wanted) return Number(sample.value);
  }
  return undefined;
}

export const PROMTOOL = '/usr/bin/promtool';

/**
 * Runs `promtool check metrics` on the text. Returns null when promtool is not installed
 * (the caller skips that step with a reason), else its exit code and output (0 and '' when
 * the exposition parses and passes every lint).
 */
export function promtoolCheck(text: string): { code: number | null; output: string } | null {
  if (!existsSync(PROMTOOL)) return null;
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 10_000 });
  return { code: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}`.trim() };
}

/** The two names the spec's table fixes that promtool's name lint flags (docs/metrics.md, *promtool*). */
const SPEC_FIXED_NAMES = ['gateway_key_tokens_total', 'gateway_lane_recovery_hint_ms'] as const;
const SPEC_FIXED_FINDINGS: Record<string, string> = {
  gateway_key_tokens_total: 'gateway_key_tokens_total non-counter metrics should not have "_total" suffix',
  gateway_lane_recovery_hint_ms: 'gateway_lane_recovery_hint_ms metric names should not contain abbreviated units',
};

/** The exposition without the families named (their HELP, TYPE and sample lines). */
function withoutFamilies(text: string, names: readonly string[]): string {
  return text
    .split('\n')
    .filter(
      (line) =>
        !names.some(
          (name) => line.startsWith(`# HELP ${name} `) || line.startsWith(`# TYPE ${name} `) || line.startsWith(`${name}{`) || line.startsWith(`${name} `),
        ),
    )
    .join('\n');
}

/**
 * `promtool check metrics` on the exposition (exit 0 clean, 1 a parse error, 3 lint findings):
 * - everything but the two spec-fixed families exits 0 with no output: format and lint clean;
 * - the whole text parses (exit 3, never 1) and its only findings are the name lint of the
 *   spec-fixed families that are present, each the expected one.
 * Returns false (nothing checked) when promtool is not installed.
 */
export function assertPromtoolClean(text: string): boolean {
  const rest = promtoolCheck(withoutFamilies(text, SPEC_FIXED_NAMES));
  if (rest === null) return false;
  assert.deepEqual(rest, { code: 0, output: '' }, 'promtool check metrics exits 0 on every family the gateway names itself');
  const whole = promtoolCheck(text)!;
  // promtool lints a family only when it has samples (no keys: no gateway_key_* lines).
  const lines = text.split('\n');
  const present = SPEC_FIXED_NAMES.filter((name) => lines.some((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `)));
  const expected = present.map((name) => SPEC_FIXED_FINDINGS[name]!).sort();
  const findings = whole.output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .sort();
  assert.deepEqual(findings, expected, whole.output);
  assert.equal(whole.code, expected.length === 0 ? 0 : 3, `promtool exit ${whole.code} (1 = the text does not parse): ${whole.output}`);
  return true;
}
