/**
 * kube-sim (1.33) with `manifests/install` applied by kubectl, as the RBAC tests start: returns the
 * cluster and a kubeconfig file for kubectl; both are removed when the test ends.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';
import { kubectl, MANIFESTS } from './kustomize.ts';

export async function installedOnSim(
  t: { after: (fn: () => Promise<void>) => void },
  prefix: string,
): Promise<{ cluster: ClusterFixture; kubeconfig: string }> {
  const cluster = await startCluster('1.33');
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.after(async () => {
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await cluster.sim.server.writeKubeconfig(kubeconfig);
  const installed = await kubectl(['--kubeconfig', kubeconfig, 'apply', '-k', join(MANIFESTS, 'install')]);
  assert.equal(installed.code, 0, installed.stderr);
  return { cluster, kubeconfig };
}
