// Whether the process runs under a CPU quota (a container's CPU limit): cgroup v2's cpu.max, or
// v1's cpu.cfs_quota_us, of the cgroup /proc/self/cgroup names. The worker's idle spin is off by
// default under a quota, where time spent polling would use up the quota that requests need and
// get the process throttled (src/worker/loop/idle-spin.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * True when a CPU quota applies. `root` is where the cgroup file systems are mounted and `self`
 * the text of /proc/self/cgroup (both settable for tests). A file that cannot be read is no quota.
 */
export function underCpuQuota(root = '/sys/fs/cgroup', self = readText('/proc/self/cgroup')): boolean {
  if (self === null) return false;
  for (const line of self.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first === -1 || second === -1) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (line.startsWith('0::')) {
      // v2: "max 100000" is no quota; "50000 100000" is half a core. The unified tree is mounted
      // at the root, or under unified/ beside v1 controllers (hybrid).
      for (const base of [root, join(root, 'unified')]) {
        const max = readText(join(base, path, 'cpu.max'));
        if (max !== null) {
          if (!max.trim().startsWith('max')) return true;
          break;
        }
      }
    } else if (controllers.split(',').includes('cpu')) {
      for (const dir of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
        const quota = readText(join(root, dir, path, 'cpu.cfs_quota_us'));
        if (quota !== null) {
          if (Number(quota.trim()) > 0) return true;
          break;
        }
      }
    }
  }
  return false;
}
