// Whether the process runs under a CPU quota (a container's CPU limit): cgroup v2's cpu.max, or
// v1's cpu.cfs_quota_us, of the cgroup /proc/self/cgroup names. Boot warns when the worker's
// idle spin (opt-in) is turned on under a quota, where time spent polling would use up the quota
// that requests need and get the process throttled (src/worker/loop/idle-spin.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The cgroup's path and each of its ancestors', up to the root ("/a/b" -> "/a/b", "/a", "/"). */
function upToRoot(path: string): string[] {
  const paths = [path];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) paths.push(path.slice(0, at));
  if (path !== '/') paths.push('/');
  return paths;
}

/**
 * True when a CPU quota applies to the process's cgroup or one of its ancestors. `root` is where
 * the cgroup file systems are mounted and `self` the text of /proc/self/cgroup (both settable for
 * tests). A file that cannot be read is no quota.
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
        for (const dir of upToRoot(path)) {
          const max = readText(join(base, dir, 'cpu.max'));
          if (max !== null && !max.trim().startsWith('max')) return true;
        }
      }
    } else if (controllers.split(',').includes('cpu')) {
      for (const mount of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
        for (const dir of upToRoot(path)) {
          const quota = readText(join(root, mount, dir, 'cpu.cfs_quota_us'));
          if (quota !== null && Number(quota.trim()) > 0) return true;
        }
      }
    }
  }
  return false;
}
