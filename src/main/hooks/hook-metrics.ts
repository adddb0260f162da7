// The metrics a hook reports in `status`, validated and bounded before an admin read shows
// them: at most MAX_METRICS entries, only the known fields, strings cut short, numbers finite.
import { Type } from '@sinclair/typebox';

const MAX_METRICS = 100;
const MAX_TEXT = 200;

export const HookMetricView = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    value: Type.Number(),
    labels: Type.Optional(Type.Record(Type.String(), Type.String())),
    quantiles: Type.Optional(Type.Record(Type.String(), Type.Number())),
    estimated: Type.Optional(Type.Boolean()),
    ci_low: Type.Optional(Type.Number()),
    ci_high: Type.Optional(Type.Number()),
    help: Type.Optional(Type.String()),
    label: Type.Optional(Type.String()),
    unit: Type.Optional(Type.String()),
    viz: Type.Optional(Type.String()),
    max: Type.Optional(Type.Number()),
  },
  { title: 'HookMetric' },
);

export interface HookMetric {
  name: string;
  type: string;
  value: number;
  [field: string]: unknown;
}

const text = (v: unknown): v is string => typeof v === 'string';
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function stringMap<T>(value: unknown, keep: (v: unknown) => v is T, cap: (v: T) => T): Record<string, T> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, T> = {};
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (n >= 32) break;
    if (keep(v)) {
      out[k.slice(0, MAX_TEXT)] = cap(v);
      n++;
    }
  }
  return out;
}

export function boundedMetrics(input: unknown): HookMetric[] {
  if (!Array.isArray(input)) return [];
  const out: HookMetric[] = [];
  for (const entry of input) {
    if (out.length >= MAX_METRICS) break;
    if (entry === null || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    if (!text(e.name) || !text(e.type) || !finite(e.value)) continue;
    const metric: HookMetric = { name: e.name.slice(0, MAX_TEXT), type: e.type.slice(0, MAX_TEXT), value: e.value };
    const labels = stringMap(e.labels, text, (v) => v.slice(0, MAX_TEXT));
    if (labels !== undefined) metric.labels = labels;
    const quantiles = stringMap(e.quantiles, finite, (v) => v);
    if (quantiles !== undefined) metric.quantiles = quantiles;
    if (typeof e.estimated === 'boolean') metric.estimated = e.estimated;
    for (const key of ['ci_low', 'ci_high', 'max'] as const) if (finite(e[key])) metric[key] = e[key];
    for (const key of ['help', 'label', 'unit', 'viz'] as const) if (text(e[key])) metric[key] = (e[key] as string).slice(0, MAX_TEXT);
    out.push(metric);
  }
  return out;
}
