// Reading a /metrics exposition the way Prometheus would: a real text-format parser, and
// `promtool check metrics` (parser + lint) where the machine has promtool.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ParsedSample {
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

/**
 * promtool lints names as well as parsing: it dislikes `_total` on a gauge and `_ms` units,
 * and the spec's table fixes gateway_key_tokens_total (gauge) and gateway_lane_recovery_hint_ms.
 * Anything else it says fails the test.
 */
export function assertOnlyMandatedLint(check: { code: number | null; output: string }): void {
  const MANDATED = ['gateway_key_tokens_total', 'gateway_lane_recovery_hint_ms'];
  const findings = check.output.split('\n').filter((line) => line.trim() !== '');
  const other = findings.filter((line) => !MANDATED.some((name) => line.startsWith(`${name} `)));
  assert.deepEqual(other, [], check.output);
  assert.ok(check.code === 0 || (check.code === 3 && findings.length > 0), `promtool exit ${check.code}: ${check.output}`);
}
