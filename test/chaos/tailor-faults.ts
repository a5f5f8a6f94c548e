/**
 * The chaos lane's faults that hit Tailor itself, on Tailor installed in the cluster: which replica
 * leads (the holder of its component's Lease, whose identity is `<pod name>_<random>`), a crash of a
 * replica (SIGKILL of its container's process on this machine: no chance to release the Lease), a
 * graceful stop (the pod deleted: SIGTERM, the Lease released), and a rollout of every Deployment
 * (`kubectl rollout restart`'s annotation on each pod template).
 */
import * as k8s from '@kubernetes/client-node';
import { containerId, containerProcess } from '../real-cluster/lane-cluster.ts';

export const TAILOR_NAMESPACE = 'tailor-system';
/** Tailor's components: their Deployment, Lease and container. */
export const COMPONENTS = {
  updater: { deployment: 'tailor-updater', lease: 'tailor-updater', container: 'updater' },
  recommender: { deployment: 'tailor-recommender', lease: 'tailor-recommender', container: 'recommender' },
  admission: { deployment: 'tailor-admission', lease: undefined, container: 'admission' },
} as const;
export type Component = keyof typeof COMPONENTS;

/** A component's live pods split into the leader (the Lease's holder) and the others. */
export interface Replicas {
  readonly leader: k8s.V1Pod | undefined;
  readonly others: readonly k8s.V1Pod[];
}

/** The replicas of `component`, the leader first found by its Lease (none for the admission webhook: every replica serves). */
export async function replicasOf(kc: k8s.KubeConfig, component: Component): Promise<Replicas> {
  const c = COMPONENTS[component];
  const pods = (
    await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: TAILOR_NAMESPACE, labelSelector: `app.kubernetes.io/component=${component}` })
  ).items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase === 'Running');
  let holder = '';
  if (c.lease) {
    holder = await kc
      .makeApiClient(k8s.CoordinationV1Api)
      .readNamespacedLease({ namespace: TAILOR_NAMESPACE, name: c.lease })
      .then(
        (l) => l.spec?.holderIdentity ?? '',
        () => '',
      );
  }
  const leader = pods.find((p) => holder.startsWith(`${p.metadata!.name}_`));
  return { leader, others: pods.filter((p) => p !== leader) };
}

/** A crash: SIGKILL of the pod's container process on this machine; the pod name and the pid killed. */
export function crash(pod: k8s.V1Pod, container: string): { pod: string; pid: number } {
  const id = containerId(pod, container);
  if (!id) throw new Error(`pod ${pod.metadata?.name} has no running ${container} container`);
  const pid = containerProcess(id);
  process.kill(pid, 'SIGKILL');
  return { pod: pod.metadata!.name!, pid };
}

/** A graceful stop: the pod deleted (SIGTERM; a leader releases its Lease). */
export async function stopGracefully(kc: k8s.KubeConfig, pod: k8s.V1Pod): Promise<void> {
  await kc.makeApiClient(k8s.CoreV1Api).deleteNamespacedPod({ namespace: pod.metadata!.namespace!, name: pod.metadata!.name! });
}

/** A rollout of each of Tailor's Deployments, as `kubectl rollout restart` does it. */
export async function rollout(kc: k8s.KubeConfig, at: Date = new Date()): Promise<void> {
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': at.toISOString() } } } } };
  for (const c of Object.values(COMPONENTS)) {
    await apps.patchNamespacedDeployment(
      { namespace: TAILOR_NAMESPACE, name: c.deployment, body: patch },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
  }
}
