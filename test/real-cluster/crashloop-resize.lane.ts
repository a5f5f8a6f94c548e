/**
 * What the real kubelet (cgroup v1) does with a memory raise sent through `pods/resize` while the
 * container waits in CrashLoopBackOff — the reason for decision 0201. Up to 1.36 the pod's status
 * and the container's cgroup show the new limit, but the pod's cgroup keeps the old one, and the
 * restarted container is OOM-killed again at the old size. The 1.37 kubelet sets the pod's cgroup
 * too, and the restarted container gets past the allocation that killed it. The test asserts each
 * version's behaviour, so a kubelet that changes it fails here and the updater's
 * `FallbackNotRunning` rule can be revisited for that version.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import {
  BUSYBOX_IMAGE,
  containerId,
  containerProcess,
  dropNamespace,
  freshNamespace,
  laneKubeConfig,
  memoryLimitBytes,
  podMemoryLimitBytes,
  serverMinor,
  waitFor,
} from './lane-cluster.ts';

const MiB = 2 ** 20;
const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
let namespace = '';
/** The 1.37 kubelet resizes the pod's cgroup of a container waiting in CrashLoopBackOff; earlier ones did not. */
const podCgroupFollows = (await serverMinor(kc)) >= 37;

before(async () => {
  namespace = await freshNamespace(core, 'lane-crashloop');
});
after(async () => {
  if (namespace) await dropNamespace(core, namespace);
});

test('a memory raise sent while the container waits in CrashLoopBackOff: status and container cgroup say 450Mi; the pod cgroup stays 300Mi and it is OOM-killed again up to 1.36, follows and survives on 1.37', async () => {
  await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name: 'hog' },
      spec: {
        terminationGracePeriodSeconds: 0,
        containers: [
          {
            name: 'app',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'Never',
            command: ['sh', '-c', 'sleep 2; dd if=/dev/zero of=/dev/null bs=400000000 count=1 || exit 137; exec sleep 3600'],
            resources: { requests: { cpu: '50m', memory: '300Mi' }, limits: { memory: '300Mi' } },
            resizePolicy: [{ resourceName: 'memory', restartPolicy: 'NotRequired' }],
          },
        ],
      },
    },
  });
  const read = () => core.readNamespacedPod({ namespace, name: 'hog' });
  // The first kill is restarted at once; after the second the container waits (back-off 10 s).
  await waitFor('the second OOM kill, the container waiting to restart', 2 * 60_000, async () => {
    const s = (await read()).status?.containerStatuses?.[0];
    return s && s.restartCount >= 1 && !s.state?.running && (s.state?.terminated?.reason ?? s.lastState?.terminated?.reason) === 'OOMKilled' ? s : undefined;
  });
  const resized = await core.patchNamespacedPodResize(
    { namespace, name: 'hog', body: { spec: { containers: [{ name: 'app', resources: { requests: { memory: '450Mi' }, limits: { memory: '450Mi' } } }] } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
  );
  const restartsAtResize = (await read()).status!.containerStatuses![0]!.restartCount;
  assert.equal(resized.spec!.containers[0]!.resources!.limits!.memory, '450Mi');

  const restarted = await waitFor('the container running again after the resize', 2 * 60_000, async () => {
    const p = await read();
    const s = p.status?.containerStatuses?.[0];
    return s?.state?.running && s.restartCount > restartsAtResize ? p : undefined;
  });
  const id = containerId(restarted, 'app')!;
  const status = restarted.status!.containerStatuses![0]!;
  assert.equal(status.resources?.limits?.memory, '450Mi', 'the status says the new limit is applied');
  assert.equal(memoryLimitBytes(id), 450 * MiB, "the container's own cgroup has it");
  assert.ok(
    !(restarted.status?.conditions ?? []).some((c) => c.type === 'PodResizeInProgress' || c.type === 'PodResizePending'),
    'no resize condition says otherwise',
  );
  if (podCgroupFollows) {
    assert.equal(podMemoryLimitBytes(id), 450 * MiB, "the 1.37 kubelet sets the pod's cgroup too");
    // The entrypoint becomes `sleep 3600` once the 400 MB allocation has passed.
    const pid = containerProcess(id);
    await waitFor('the restarted container past its 400 MB allocation (exec sleep 3600)', 60_000, async () =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0') ? true : undefined,
    );
    assert.equal((await read()).status?.containerStatuses?.[0]?.restartCount, status.restartCount, 'not killed again');
    return;
  }
  assert.equal(podMemoryLimitBytes(id), 300 * MiB, "the pod's cgroup keeps the old limit");

  const killedAgain = await waitFor('the restarted container OOM-killed again', 60_000, async () => {
    const s = (await read()).status?.containerStatuses?.[0];
    const last = s?.state?.terminated ?? s?.lastState?.terminated;
    return last?.reason === 'OOMKilled' && last.containerID?.endsWith(id) ? last : undefined;
  });
  assert.equal(killedAgain.exitCode, 137, 'killed under the pod cgroup’s old 300Mi although its own limit is 450Mi');
});
