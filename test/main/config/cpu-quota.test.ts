// underCpuQuota over made-up cgroup trees: v2 (cpu.max), v1 (cpu.cfs_quota_us), hybrid, none.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { underCpuQuota } from '../../../src/main/config/cpu-quota.js';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A cgroup root holding `files` (path -> text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cgroup-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('underCpuQuota', () => {
  it('reads cgroup v2 cpu.max', () => {
    assert.equal(underCpuQuota(tree({ 'pod/app/cpu.max': '50000 100000\n' }), '0::/pod/app\n'), true);
    assert.equal(underCpuQuota(tree({ 'pod/app/cpu.max': 'max 100000\n' }), '0::/pod/app\n'), false);
  });

  it('finds a quota set on an ancestor cgroup', () => {
    assert.equal(underCpuQuota(tree({ 'kubepods/cpu.max': '100000 100000\n', 'kubepods/pod1/app/cpu.max': 'max 100000\n' }), '0::/kubepods/pod1/app\n'), true);
    const self = '2:cpu,cpuacct:/kubepods/pod1/app\n';
    assert.equal(
      underCpuQuota(tree({ 'cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us': '50000\n', 'cpu,cpuacct/kubepods/pod1/app/cpu.cfs_quota_us': '-1\n' }), self),
      true,
    );
    assert.equal(underCpuQuota(tree({ 'cpu,cpuacct/kubepods/cpu.cfs_quota_us': '-1\n', 'cpu,cpuacct/cpu.cfs_quota_us': '-1\n' }), self), false);
  });

  it('reads cgroup v2 under unified/ in a hybrid layout', () => {
    assert.equal(underCpuQuota(tree({ 'unified/svc/cpu.max': '200000 100000\n' }), '0::/svc\n'), true);
  });

  it('reads cgroup v1 cpu.cfs_quota_us', () => {
    const self = '5:memory:/x\n3:cpu,cpuacct:/docker/abc\n0::/\n';
    assert.equal(underCpuQuota(tree({ 'cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '150000\n' }), self), true);
    assert.equal(underCpuQuota(tree({ 'cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '-1\n' }), self), false);
    assert.equal(underCpuQuota(tree({ 'cpu/docker/abc/cpu.cfs_quota_us': '100000\n' }), '1:cpu:/docker/abc\n'), true);
  });

  it('is false when nothing can be read', () => {
    assert.equal(underCpuQuota(tree({}), '0::/\n'), false);
    assert.equal(underCpuQuota(tree({}), null), false);
    assert.equal(underCpuQuota(tree({}), 'garbage'), false);
  });
});
