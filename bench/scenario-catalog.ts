// Finds the scenarios: every module in bench/scenarios/ that exports `scenario` (or `scenarios`,
// a list, for a family such as the cross-protocol pairs). Discovery by
// directory keeps adding a scenario to one new file (no shared list to edit and merge).
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { TARGET_KINDS, type Scenario } from './scenario.js';

const SCENARIOS_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));

/** Imports and checks every scenario in `dir`, sorted by `order` then name. */
export async function loadScenarios(dir: string = SCENARIOS_DIR): Promise<Scenario[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.js')).sort();
  const found: Scenario[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { scenario?: unknown; scenarios?: unknown };
    if (Array.isArray(mod.scenarios)) {
      for (const s of mod.scenarios) found.push(checkScenario(s, file));
      continue;
    }
    if (mod.scenario === undefined) throw new Error(`bench/scenarios/${file}: exports no \`scenario\``);
    found.push(checkScenario(mod.scenario, file));
  }
  const seen = new Set<string>();
  for (const s of found) {
    if (seen.has(s.name)) throw new Error(`two scenarios are named "${s.name}"`);
    seen.add(s.name);
  }
  return found.sort((a, b) => (a.order ?? 1000) - (b.order ?? 1000) || a.name.localeCompare(b.name));
}

/**
 * The scenarios named (all but the named-only ones when `names` is empty); a group name stands
 * for its scenarios, in suite order; an unknown name lists the known ones.
 */
export function selectScenarios(all: readonly Scenario[], names: readonly string[]): Scenario[] {
  if (names.length === 0) return all.filter((s) => s.namedOnly !== true);
  const byName = new Map(all.map((s) => [s.name, s]));
  return names.flatMap((n) => {
    const s = byName.get(n);
    if (s !== undefined) return [s];
    const group = all.filter((x) => x.group === n);
    if (group.length > 0) return group;
    const groups = [...new Set(all.map((x) => x.group).filter((g): g is string => g !== undefined))];
    throw new Error(`unknown scenario "${n}"; known: ${[...all.map((x) => x.name), ...groups.map((g) => `${g} (group)`)].join(', ')}`);
  });
}

/** Throws an error naming the file and field when a scenario object is malformed. */
export function checkScenario(value: unknown, file: string): Scenario {
  const fail = (what: string): never => {
    throw new Error(`bench/scenarios/${file}: ${what}`);
  };
  if (typeof value !== 'object' || value === null) fail('`scenario` is not an object');
  const s = value as Scenario;
  if (typeof s.name !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(s.name)) fail('name must be lower-case words joined by dashes');
  if (typeof s.title !== 'string' || s.title === '') fail('title is missing');
  if (s.kind !== 'throughput' && s.kind !== 'added-latency') fail('kind must be "throughput" or "added-latency"');
  if (typeof s.request !== 'object' || s.request === null) fail('request is missing');
  if (typeof s.request.path !== 'string' || !s.request.path.startsWith('/')) fail('request.path must start with "/"');
  if (typeof s.request.method !== 'string') fail('request.method is missing');
  if (s.request.body !== undefined && typeof s.request.body !== 'string') fail('request.body must be a string');
  if (!Array.isArray(s.targets) || s.targets.length === 0) fail('targets must be a non-empty list');
  for (const t of s.targets) if (!TARGET_KINDS.includes(t)) fail(`unknown target "${String(t)}" (known: ${TARGET_KINDS.join(', ')})`);
  if (!Number.isInteger(s.connections) || s.connections < 1) fail('connections must be a positive integer');
  if (!Number.isInteger(s.durationSecs) || s.durationSecs < 1) fail('durationSecs must be a whole number of seconds (wrk takes whole seconds)');
  return s;
}
