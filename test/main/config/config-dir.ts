// Temp folders holding a config for one test: gateway.yaml + providers.yaml (+ any other file).
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { stringify } from 'yaml';

const made: string[] = [];

/** A fresh temp folder with `files` written (objects are written as YAML). */
export function configDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-config-test-'));
  made.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  }
  return dir;
}

export function removeConfigDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every path under `dir` with its size and mtime, to prove nothing was written. */
export function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      const stat = statSync(child);
      out.push(`${relative(dir, child)} ${stat.size} ${stat.mtimeMs}`);
      if (stat.isDirectory()) walk(child);
    }
  };
  walk(dir);
  return out.sort();
}

export function minimalProviders(): Record<string, unknown> {
  return { providers: { up: { protocol: 'openai', base_url: 'http://127.0.0.1:9000/v1', auth: { mode: 'none' } } } };
}

export function minimalConfig(): Record<string, any> {
  return {
    listen: '127.0.0.1:8080',
    models: { m1: { provider: 'up' } },
    pools: { main: { members: [{ model: 'm1' }] } },
  };
}
