/**
 * The JSON Patch that writes a resource plan into a pod being created, plus the annotations that
 * say what was changed and from what. Each changed container's `resources` is replaced as a whole
 * by `applyPlanToRequirements` (other resources such as ephemeral-storage, and the spelling of
 * unchanged values, are kept), at `/spec/containers/<i>/resources` or, for a sidecar,
 * `/spec/initContainers/<i>/resources`, and pod-level values (pod-level-resources.ts) at
 * `/spec/resources`; `add` is used where there is no `resources` yet.
 * Annotations:
 * - `vpaUpdates` (the upstream admission controller's key, which dashboards look for):
 *   `Pod resources updated by web: container 0: cpu request, cpu limit`;
 * - `tailor.dev/vpa`: the VPA's name;
 * - `tailor.dev/resources-changed`: `app: cpu request 100m -> 250m, cpu limit 200m -> 500m`
 *   (one clause per changed container, joined by `; `).
 * Every pod a VPA controls (mode not Off) also gets `vpaObservedContainers`, upstream's list of the
 * containers the webhook saw (`app, log`), even when no resource changes: containers that a later
 * webhook injects are not in it, and upstream's updater leaves them out of its eviction decisions.
 */
import type { V1Container, V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { applyPlanToRequirements } from '../policy/resource-requirements.ts';
import { describeContainerChanges } from '../policy/plan-summary.ts';
import type { ContainerResourcesPlan, PodResourcesPlan } from '../policy/pod-resources.ts';
import { escapePointerToken, type JsonPatchOperation } from './json-patch.ts';

export const VPA_UPDATES_ANNOTATION = 'vpaUpdates';
export const VPA_NAME_ANNOTATION = 'tailor.dev/vpa';
export const CHANGES_ANNOTATION = 'tailor.dev/resources-changed';
export const OBSERVED_CONTAINERS_ANNOTATION = 'vpaObservedContainers';

/** `vpaObservedContainers`: the names of the pod's containers as the webhook sees them, joined by `, ` (upstream's format). */
export function observedContainers(pod: V1Pod): Record<string, string> {
  return { [OBSERVED_CONTAINERS_ANNOTATION]: (pod.spec?.containers ?? []).map((c) => c.name).join(', ') };
}

/** The upstream-style summary: which values of which container (by index) were set. */
function vpaUpdatesText(vpaName: string, changed: readonly { label: string; plan: ContainerResourcesPlan }[]): string {
  const parts = changed.map(({ label, plan }) => {
    const fields: string[] = [];
    for (const r of plan.changedResources) {
      if (plan.proposed.requests[r] !== plan.current.requests[r]) fields.push(`${r} request`);
    }
    for (const r of plan.changedResources) {
      if (plan.proposed.limits[r] !== plan.current.limits[r]) fields.push(`${r} limit`);
    }
    return `${label}: ${fields.join(', ')}`;
  });
  return `Pod resources updated by ${vpaName}: ${parts.join('; ')}`;
}

/** The annotations for a plan (empty when nothing changes). */
export function changeAnnotations(vpaName: string, pod: V1Pod, plan: PodResourcesPlan): Record<string, string> {
  const changed = locateChanged(pod, plan);
  if (changed.length === 0) return {};
  const lines = changed.map(({ plan: c }) => describeContainerChanges(c)).filter((x): x is string => x !== undefined);
  return {
    [VPA_UPDATES_ANNOTATION]: vpaUpdatesText(vpaName, changed),
    [VPA_NAME_ANNOTATION]: vpaName,
    [CHANGES_ANNOTATION]: lines.join('; '),
  };
}

interface Located {
  /** Where the `resources` object is: `/spec/containers/0/resources`, `/spec/resources` (pod-level). */
  path: string;
  /** `container 0` (upstream's wording), `pod` for the pod-level values. */
  label: string;
  existing: V1ResourceRequirements | undefined;
  plan: ContainerResourcesPlan;
}

function locateChanged(pod: V1Pod, plan: PodResourcesPlan): Located[] {
  const out: Located[] = [];
  for (const c of plan.containers) {
    if (c.changedResources.length === 0) continue;
    if (c.kind === 'pod') {
      out.push({ path: '/spec/resources', label: 'pod', existing: pod.spec?.resources, plan: c });
      continue;
    }
    const list = c.kind === 'sidecar' ? 'initContainers' : 'containers';
    const containers: V1Container[] = pod.spec?.[list] ?? [];
    const index = containers.findIndex((x) => x.name === c.containerName);
    if (index >= 0) out.push({ path: `/spec/${list}/${index}/resources`, label: `container ${index}`, existing: containers[index]!.resources, plan: c });
  }
  return out;
}

/** The patch for the plan and annotations; empty when the plan changes nothing. Pure. */
export function buildPodPatch(pod: V1Pod, plan: PodResourcesPlan, annotations: Record<string, string>): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  const changed = locateChanged(pod, plan);
  if (changed.length === 0) return ops;
  for (const { path, existing, plan: c } of changed) {
    ops.push({ op: existing ? 'replace' : 'add', path, value: applyPlanToRequirements(existing, c) });
  }
  ops.push(...annotationPatch(pod, annotations));
  return ops;
}

/** The operations that set these annotations on the pod (`add` of the whole map when it has none). Pure. */
export function annotationPatch(pod: V1Pod, annotations: Record<string, string>): JsonPatchOperation[] {
  if (Object.keys(annotations).length === 0) return [];
  const existing = pod.metadata?.annotations;
  if (!existing) return [{ op: 'add', path: '/metadata/annotations', value: { ...annotations } }];
  return Object.entries(annotations).map(([key, value]) => ({
    op: key in existing ? 'replace' : 'add',
    path: `/metadata/annotations/${escapePointerToken(key)}`,
    value,
  }));
}
