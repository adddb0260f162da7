// The CPU-heavy config work that runs in piscina, off the main thread, so the admin listener
// stays responsive: loading and validating a proposed config, and diffing two versions.
import { loadConfig, type LoadResult } from './load.js';
import { globalHooksOf, hookViewsOf } from './hook-views.js';

export type ConfigTask = { kind: 'load'; configPath: string; safeMode: boolean; document?: unknown } | { kind: 'diff'; from: unknown; to: unknown };

export interface ConfigDiff {
  hooks: { added: string[]; removed: string[]; changed: string[] };
  global_hooks: { from: string[]; to: string[] } | null;
}

export default async function run(task: ConfigTask): Promise<LoadResult | ConfigDiff> {
  if (task.kind === 'load') {
    return loadConfig({ configPath: task.configPath, safeMode: task.safeMode, purpose: 'boot', document: task.document });
  }
  return diffConfigs(task.from, task.to);
}

export function diffConfigs(from: unknown, to: unknown): ConfigDiff {
  const a = hookViewsOf(from);
  const b = hookViewsOf(to);
  const added = Object.keys(b)
    .filter((n) => !(n in a))
    .sort();
  const removed = Object.keys(a)
    .filter((n) => !(n in b))
    .sort();
  const changed = Object.keys(b)
    .filter((n) => n in a && JSON.stringify(a[n]) !== JSON.stringify(b[n]))
    .sort();
  const ga = globalHooksOf(from);
  const gb = globalHooksOf(to);
  return { hooks: { added, removed, changed }, global_hooks: JSON.stringify(ga) === JSON.stringify(gb) ? null : { from: ga, to: gb } };
}
