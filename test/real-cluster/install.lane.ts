/**
 * Tailor installed as a user would: Tailor's image built from the Dockerfile (image.sh) and
 * imported into each node, then `kubectl apply -k` of an overlay of manifests/install that sets the
 * image and nothing else. On the real cluster: the CRDs are served, the three Deployments become
 * Ready, the webhook makes its certificate and the real apiserver calls it, the pods run as a
 * non-root user on a read-only root file system, two updater replicas elect one leader and the
 * other takes over when the leader is killed, and the installed updater's service account gets 403
 * on `patch pods`. Uninstalls at the end (`kubectl delete -k`), so the other lane tests see no Tailor.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { containerId, containerProcess, laneKubeConfig, laneKubectl, waitFor } from './lane-cluster.ts';

const NS = 'tailor-system';
const DEPLOYMENTS = ['tailor-recommender', 'tailor-updater', 'tailor-admission'];
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const admin = laneKubeConfig();
const core = admin.makeApiClient(k8s.CoreV1Api);
const apps = admin.makeApiClient(k8s.AppsV1Api);
const coordination = admin.makeApiClient(k8s.CoordinationV1Api);
const ext = admin.makeApiClient(k8s.ApiextensionsV1Api);
const registration = admin.makeApiClient(k8s.AdmissionregistrationV1Api);
const custom = admin.makeApiClient(k8s.CustomObjectsApi);
const overlay = mkdtempSync(join(tmpdir(), 'tailor-install-'));
let image = '';

const kubectl = laneKubectl;

async function deploymentsReady(): Promise<k8s.V1Deployment[] | undefined> {
  const all = await Promise.all(DEPLOYMENTS.map((name) => apps.readNamespacedDeployment({ namespace: NS, name })));
  return all.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas) ? all : undefined;
}

async function podsOf(app: string): Promise<k8s.V1Pod[]> {
  const list = await core.listNamespacedPod({ namespace: NS, labelSelector: `app.kubernetes.io/component=${app}` });
  return list.items.filter((p) => !p.metadata?.deletionTimestamp);
}

before(async () => {
  // image.sh --import: the cached image of this checkout into each node's containerd (lane.sh builds it first).
  image = execFileSync('bash', ['test/real-cluster/image.sh', '--import'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
  const [name, tag] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
  // The user's overlay: manifests/install with the image set, nothing else.
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      `  - ${relative(overlay, resolve('manifests/install'))}`,
      'images:',
      '  - name: tailor',
      `    newName: ${name}`,
      `    newTag: ${tag}`,
      '',
    ].join('\n'),
  );
  kubectl('apply', '-k', overlay);
});

after(async () => {
  try {
    kubectl('delete', '-k', overlay, '--ignore-not-found', '--wait=false');
    // The other lane tests must not meet Tailor's webhook or its updater: wait until all is gone.
    await waitFor(`namespace ${NS} deleted`, 180_000, () =>
      core.readNamespace({ name: NS }).then(
        () => undefined,
        () => true,
      ),
    );
    await waitFor('the VPA CRDs deleted', 120_000, async () => {
      const crds = await ext.listCustomResourceDefinition();
      return crds.items.some((c) => c.spec.group === 'autoscaling.k8s.io') ? undefined : true;
    });
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
});

test("the overlay changes only the image: the rendered objects are manifests/install's but for it", () => {
  const plain = kubectl('kustomize', 'manifests/install');
  const ours = kubectl('kustomize', overlay);
  assert.equal(ours.replaceAll(`image: ${image}`, 'image: tailor:0.1.0'), plain);
  assert.equal(ours.split(`image: ${image}`).length - 1, 3, 'the three Deployments run the lane-built image');
});

test('the CRDs are established and served', async () => {
  for (const name of ['verticalpodautoscalers.autoscaling.k8s.io', 'verticalpodautoscalercheckpoints.autoscaling.k8s.io']) {
    await waitFor(`CRD ${name} Established`, 60_000, async () => {
      const crd = await ext.readCustomResourceDefinition({ name });
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    });
  }
  // Just Established, a resource may still answer 429 "storage is (re)initializing" for a moment.
  for (const plural of ['verticalpodautoscalers', 'verticalpodautoscalercheckpoints']) {
    let last = '';
    const list = await waitFor(
      `${plural} served`,
      60_000,
      () =>
        custom.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural }).then(
          (l) => l as { kind?: string; items?: unknown[] },
          (error: unknown) => {
            last = String((error as { body?: string }).body ?? error);
            return undefined;
          },
        ),
      () => last,
    );
    assert.ok(Array.isArray(list.items), plural);
    assert.match(list.kind ?? '', /List$/);
  }
});

test('the three Deployments become Ready on the lane-built image; their processes run as 65532 on a read-only root', async () => {
  let last: k8s.V1Deployment[] = [];
  await waitFor(
    "Tailor's Deployments Ready",
    300_000,
    async () => {
      last = await Promise.all(DEPLOYMENTS.map((name) => apps.readNamespacedDeployment({ namespace: NS, name })));
      return deploymentsReady();
    },
    () => last.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', '),
  );
  const pods = (await core.listNamespacedPod({ namespace: NS })).items;
  assert.equal(pods.length, 4, 'recommender, updater and two admission replicas');
  for (const pod of pods) {
    const c = pod.spec!.containers[0]!;
    assert.equal(c.image, image);
    assert.equal(c.securityContext?.readOnlyRootFilesystem, true);
    // What the kernel says about the container's process on this node.
    const proc = containerProcess(containerId(pod, c.name)!);
    assert.match(readFileSync(`/proc/${proc}/status`, 'utf8'), /^Uid:\s+65532\s+65532\s+65532\s+65532$/m, `${pod.metadata?.name} runs as 65532`);
    const root = readFileSync(`/proc/${proc}/mountinfo`, 'utf8')
      .split('\n')
      .find((l) => l.split(' ')[4] === '/');
    assert.match(root?.split(' ')[5] ?? '', /^ro\b/, `${pod.metadata?.name}'s root file system is read-only: ${root}`);
  }
});

test("the webhook makes its certificate and the real apiserver calls it (through the Service's endpoints)", async () => {
  await waitFor('Secret tailor-webhook-ca', 120_000, () =>
    core.readNamespacedSecret({ namespace: NS, name: 'tailor-webhook-ca' }).then(
      () => true,
      () => undefined,
    ),
  );
  await waitFor('the caBundle in both webhook configurations', 120_000, async () => {
    const m = await registration.readMutatingWebhookConfiguration({ name: 'tailor' });
    const v = await registration.readValidatingWebhookConfiguration({ name: 'tailor' });
    return [...(m.webhooks ?? []), ...(v.webhooks ?? [])].every((w) => (w.clientConfig.caBundle ?? '').length > 0) ? true : undefined;
  });
  // A VPA the CRD schema accepts and Tailor's validation rejects: refused only if the call arrived
  // (failurePolicy Ignore admits it when the webhook cannot be reached). A few tries: the apiserver's
  // webhook client picks up the new caBundle within a second or two.
  const body = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'invalid' },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      resourcePolicy: { containerPolicies: [{ containerName: '*', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '500m' } }] },
    },
  };
  let created = 0;
  const refusal = await waitFor("Tailor's webhook to refuse an invalid VPA", 60_000, async () => {
    try {
      await custom.createNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers', body });
      created += 1;
      await custom.deleteNamespacedCustomObject({
        group: 'autoscaling.k8s.io',
        version: 'v1',
        namespace: 'default',
        plural: 'verticalpodautoscalers',
        name: 'invalid',
      });
      return undefined;
    } catch (error) {
      return error as { code?: number; body?: string };
    }
  });
  assert.equal(refusal.code, 422, refusal.body);
  assert.match(
    refusal.body ?? '',
    /admission webhook \\"vpa\.admission\.tailor\.dev\\" denied the request: VerticalPodAutoscaler\.autoscaling\.k8s\.io \\"invalid\\" is invalid: .*maxAllowed\.cpu: 500m is below minAllowed\.cpu 2/,
  );
  assert.match(refusal.body ?? '', /"reason":"Invalid"/);
  console.log(`webhook reached after ${created} admitted attempt(s)`);
});

/** The last lines of each updater pod's log, to say why when leader election is not as expected. */
async function updaterLogs(): Promise<string> {
  const pods = await podsOf('updater');
  return pods
    .map((p) => {
      try {
        return `--- ${p.metadata!.name}\n${kubectl('-n', NS, 'logs', p.metadata!.name!, '--tail=5')}`;
      } catch (error) {
        return `--- ${p.metadata!.name}: ${(error as Error).message}`;
      }
    })
    .join('\n');
}

test('two updater replicas: one holds the Lease; when it is killed a live replica takes over after the lease, and a graceful stop hands over at once', async () => {
  try {
    await leaderFailover();
  } catch (error) {
    throw new Error(`${(error as Error).message}\nthe updaters' logs:\n${await updaterLogs()}`, { cause: error });
  }
});

async function leaderFailover(): Promise<void> {
  await apps.patchNamespacedDeploymentScale({ namespace: NS, name: 'tailor-updater', body: { spec: { replicas: 2 } } }, MERGE);
  await waitFor('two updater replicas Ready', 180_000, async () => {
    const pods = await podsOf('updater');
    return pods.length === 2 && pods.every((p) => p.status?.containerStatuses?.[0]?.ready) ? true : undefined;
  });
  // The Lease as last read (none yet: an empty spec).
  const holder = async (): Promise<k8s.V1LeaseSpec> =>
    coordination.readNamespacedLease({ namespace: NS, name: 'tailor-updater' }).then(
      (l) => l.spec ?? {},
      (error: unknown) => {
        if ((error as { code?: number }).code === 404) return {};
        throw error;
      },
    );
  // The identity is `<hostname>_<random>`; a pod's hostname is its name.
  const leaderPod = await waitFor(
    'a leader',
    60_000,
    async () => {
      const id = (await holder()).holderIdentity ?? '';
      return (await podsOf('updater')).find((p) => id.startsWith(`${p.metadata!.name}_`));
    },
    () => 'no Lease tailor-updater held by an updater pod',
  );
  const standby = (await podsOf('updater')).find((p) => p.metadata!.name !== leaderPod.metadata!.name)!;
  assert.ok(standby, 'a second updater pod');
  const before = await holder();

  // A crash: SIGKILL the leader's process (no chance to release the Lease). The kubelet restarts
  // the container at once, and the restarted process is a new candidate (a new identity) like the
  // standby: whichever sees the Lease expire first takes it. Both count it from their own first
  // sight of the last renewal; the standby usually wins, but a restart that starts fast can win
  // (seen in CI once start-up got faster with lazy loading). Either is a correct handover.
  const killedAt = Date.now();
  process.kill(containerProcess(containerId(leaderPod, 'updater')!), 'SIGKILL');
  const after = await waitFor('a live replica to take the Lease', 120_000, async () => {
    const spec = await holder();
    const id = spec.holderIdentity ?? '';
    return id !== '' && id !== before.holderIdentity ? spec : undefined;
  });
  const crashTakeover = Date.now() - killedAt;
  const taker = (await podsOf('updater')).find((p) => after.holderIdentity!.startsWith(`${p.metadata!.name}_`));
  assert.ok(taker, `the new holder ${after.holderIdentity} is an updater pod`);
  assert.equal(after.leaseTransitions, (before.leaseTransitions ?? 0) + 1);
  // Not before the Lease could have expired: 15 s by default, counted from when a candidate last saw
  // a renewal (the standby looks every retry period, 2 s plus up to 20 % jitter, so up to ~2.4 s before the kill).
  assert.ok(crashTakeover >= (before.leaseDurationSeconds ?? 15) * 1000 - 3_000, `took over after ${crashTakeover} ms`);
  const by = taker.metadata!.name === standby.metadata!.name ? 'the standby' : 'the restarted replica';

  // A graceful stop: delete the new leader's pod; it releases the Lease on SIGTERM.
  await waitFor('the killed replica back and Ready', 120_000, async () => {
    const pods = await podsOf('updater');
    return pods.length === 2 && pods.every((p) => p.status?.containerStatuses?.[0]?.ready) ? true : undefined;
  });
  const deletedAt = Date.now();
  await core.deleteNamespacedPod({ namespace: NS, name: taker.metadata!.name! });
  // Another replica takes it: the other pod, or (if it starts fast enough) the deleted pod's replacement.
  const next = await waitFor('another replica to take the Lease', 120_000, async () => {
    const spec = await holder();
    const id = spec.holderIdentity ?? '';
    return id !== '' && !id.startsWith(`${taker.metadata!.name}_`) ? spec : undefined;
  });
  const releaseTakeover = Date.now() - deletedAt;
  assert.equal(next.leaseTransitions, (before.leaseTransitions ?? 0) + 2);
  // Released on SIGTERM: taken well before the 15 s a crash costs.
  assert.ok(releaseTakeover < crashTakeover, `a graceful stop (${releaseTakeover} ms) hands over sooner than a crash (${crashTakeover} ms)`);
  console.log(
    `leader failover: ${crashTakeover} ms after SIGKILL (lease ${before.leaseDurationSeconds} s; taken by ${by}), ${releaseTakeover} ms after a pod delete (Lease released)`,
  );
}

test("the installed updater's service account gets 403 on patch pods, and may patch pods/resize", async () => {
  const request = await core.createNamespacedServiceAccountToken({
    namespace: NS,
    name: 'tailor-updater',
    body: { spec: { audiences: [], expirationSeconds: 600 } },
  });
  const cluster = admin.getCurrentCluster()!;
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'updater', token: request.status!.token }],
    contexts: [{ name: 'updater', cluster: cluster.name, user: 'updater' }],
    currentContext: 'updater',
  });
  const updater = kc.makeApiClient(k8s.CoreV1Api);
  const target = (await podsOf('admission'))[0]!;
  const denied = await updater
    .patchNamespacedPod({ namespace: NS, name: target.metadata!.name!, body: { metadata: { labels: { touched: 'yes' } } } }, MERGE)
    .then(
      () => undefined,
      (error: unknown) => error as { code?: number; body?: string },
    );
  assert.equal(denied?.code, 403, 'patch pods is forbidden');
  assert.match(denied?.body ?? '', /system:serviceaccount:tailor-system:tailor-updater.*cannot patch resource \\?"pods\\?"/);
  const review = await admin.makeApiClient(k8s.AuthorizationV1Api).createSubjectAccessReview({
    body: {
      spec: {
        user: 'system:serviceaccount:tailor-system:tailor-updater',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:tailor-system'],
        resourceAttributes: { namespace: 'default', verb: 'patch', resource: 'pods', subresource: 'resize' },
      },
    },
  });
  assert.equal(review.status?.allowed, true, 'patch pods/resize is allowed');
});
