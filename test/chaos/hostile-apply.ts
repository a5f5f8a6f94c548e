/**
 * Applies the hostile VPAs (hostile-vpas.ts) to the lane during a run, as a GitOps tool would (one
 * create each, no client-side validation), keeping the API server's answer to each; then makes the
 * cycle ReplicaSets own each other and deletes their pods, so that the pods that replace them go
 * through Tailor's admission webhook with the cycle in place. Reads the VPAs back at the end.
 */
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { CreateResult } from './hostile-outcome.ts';
import { cyclePartner, type HostileCase } from './hostile-vpas.ts';

/** The status and message of a failed API call (client-node's ApiException), or a transport error's message. */
export function apiAnswer(error: unknown): CreateResult {
  const e = error as { code?: number; body?: unknown; message?: string };
  let message = e.message ?? String(error);
  if (typeof e.body === 'string') {
    try {
      message = (JSON.parse(e.body) as { message?: string }).message ?? e.body;
    } catch {
      message = e.body;
    }
  }
  return { status: typeof e.code === 'number' ? e.code : 0, message };
}

/** Creates each case's objects in order; the answer to each VPA's create by name. */
export async function applyHostile(kc: k8s.KubeConfig, cases: readonly HostileCase[]): Promise<Map<string, CreateResult>> {
  const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  const answers = new Map<string, CreateResult>();
  for (const c of cases) {
    for (const before of c.before ?? []) await objects.create(before).catch(() => undefined);
    answers.set(
      c.name,
      await objects.create(c.vpa as unknown as k8s.KubernetesObject).then(
        () => ({ status: 201, message: 'created' }),
        (error: unknown) => apiAnswer(error),
      ),
    );
  }
  await closeCycles(kc, cases);
  return answers;
}

/** Each cycle ReplicaSet made the controller of its partner, then its pods deleted (recreated through the webhook). */
async function closeCycles(kc: k8s.KubeConfig, cases: readonly HostileCase[]): Promise<void> {
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const cycles = cases.filter((c) => c.kind === 'cycle');
  for (const c of cycles) {
    const namespace = (c.vpa['metadata'] as { namespace: string }).namespace;
    const partner = await apps.readNamespacedReplicaSet({ namespace, name: cyclePartner(c.name) }).catch(() => undefined);
    if (!partner?.metadata?.uid) continue;
    const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: partner.metadata.name!, uid: partner.metadata.uid, controller: true }];
    await apps
      .patchNamespacedReplicaSet(
        { namespace, name: c.name, body: { metadata: { ownerReferences } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      )
      .catch(() => undefined);
  }
  for (const c of cycles) {
    const namespace = (c.vpa['metadata'] as { namespace: string }).namespace;
    await core.deleteCollectionNamespacedPod({ namespace, labelSelector: `app=${c.name}` }).catch(() => undefined);
  }
}

/** The namespace's VPAs by name (the hostile ones among them). */
export async function listVpas(kc: k8s.KubeConfig, namespace: string): Promise<Map<string, VerticalPodAutoscaler>> {
  const list = (await kc
    .makeApiClient(k8s.CustomObjectsApi)
    .listNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', namespace, plural: 'verticalpodautoscalers' })) as {
    items: VerticalPodAutoscaler[];
  };
  return new Map(list.items.map((v) => [v.metadata.name!, v]));
}
