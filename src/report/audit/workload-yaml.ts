/**
 * The recommendation of one workload as YAML to copy: its containers' `resources` (requests and
 * limits in the units people write, `250m`, `300Mi`, `1Gi`) inside the workload's pod template, a
 * strategic merge patch as it stands (`kubectl patch deployment web --patch-file`, containers are
 * merged by name) and the same shape as the manifest it goes into.
 *
 * The values are what Tailor's updater would set under the default container policy
 * (RequestsAndLimits, no bounds, no LimitRange): the request is the recommendation, rounded up to
 * a whole millicore and MiB; a limit is kept in proportion to the request (limit 2x the request
 * stays 2x), a request equal to its limit stays equal, and no limit is added where there was none
 * (policy/container-plan.ts). A resource without a recommendation keeps its current values.
 */
import { stringify } from 'yaml';
import type { ResourceAmounts } from '../../api/vpa-quantities.ts';
import { planContainer } from '../../policy/container-plan.ts';
import { containerPolicyFor } from '../../policy/container-policy.ts';
import type { ContainerResourceValues } from '../../policy/container-values.ts';
import { cpuText, memoryHuman } from '../report-quantities.ts';
import type { ResourceAudit, WorkloadAudit } from './audit-report.ts';

/** Where a workload kind keeps its pod spec, as the path of keys to it. */
export function podSpecPath(kind: string): string[] {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  // Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, ReplicationController and most custom
  // workloads (Argo Rollouts, OpenKruise) keep a pod template at spec.template.
  return ['spec', 'template', 'spec'];
}

const amounts = (a: ResourceAudit, key: 'request' | 'limit' | 'target'): number | undefined => a[key] ?? undefined;

function compact(x: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = {};
  if (x.cpu !== undefined) out.cpu = x.cpu;
  if (x.memory !== undefined) out.memory = x.memory;
  return out;
}

/** The container's requests and limits with the recommendation applied (millicores, bytes). */
export function recommendedValues(c: Pick<WorkloadAudit, 'container' | 'cpu' | 'memory'>): ContainerResourceValues {
  const current: ContainerResourceValues = {
    requests: compact({ cpu: amounts(c.cpu, 'request'), memory: amounts(c.memory, 'request') }),
    limits: compact({ cpu: amounts(c.cpu, 'limit'), memory: amounts(c.memory, 'limit') }),
  };
  const guaranteed = (['cpu', 'memory'] as const).every((r) => current.limits[r] !== undefined && current.limits[r] === current.requests[r]);
  return planContainer({
    containerName: c.container,
    current,
    target: compact({ cpu: amounts(c.cpu, 'target'), memory: amounts(c.memory, 'target') }),
    policy: containerPolicyFor(undefined, c.container),
    limitRange: { cpu: {}, memory: {} },
    guaranteed,
  }).proposed;
}

/** Quantities as Kubernetes writes them: `250m`, `2`, `300Mi`, `1Gi`. */
function resourceList(a: ResourceAmounts): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const cpu = a.cpu === undefined ? null : cpuText(a.cpu);
  const memory = a.memory === undefined ? null : memoryHuman(a.memory);
  if (cpu !== null) out['cpu'] = cpu;
  if (memory !== null) out['memory'] = memory;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One workload's containers as they come in the report (any order). */
export interface WorkloadContainers {
  namespace: string;
  workload: { kind: string; name: string };
  containers: readonly Pick<WorkloadAudit, 'container' | 'cpu' | 'memory'>[];
}

/** How to apply the YAML besides pasting it into the manifest. */
export function applyHint(w: Pick<WorkloadContainers, 'namespace' | 'workload'>): string {
  if (w.workload.kind === 'Pod')
    return `A bare Pod: put these into its manifest (a running Pod's resources change only through kubectl's --subresource resize).`;
  return `Paste into the manifest, or save as a file and run kubectl -n ${w.namespace} patch ${w.workload.kind.toLowerCase()} ${w.workload.name} --patch-file FILE`;
}

/** True when at least one of the workload's containers has a recommendation to copy. */
export function hasRecommendation(w: WorkloadContainers): boolean {
  return w.containers.some((c) => c.cpu.target !== null || c.memory.target !== null);
}

/** The YAML text: a comment saying which workload, then the patch. */
export function workloadYaml(w: WorkloadContainers): string {
  const containers = [...w.containers]
    .filter((c) => c.cpu.target !== null || c.memory.target !== null)
    .sort((a, b) => a.container.localeCompare(b.container))
    .map((c) => {
      const v = recommendedValues(c);
      const resources: Record<string, Record<string, string>> = {};
      const requests = resourceList(v.requests);
      const limits = resourceList(v.limits);
      if (requests) resources['requests'] = requests;
      if (limits) resources['limits'] = limits;
      return { name: c.container, resources };
    });
  let doc: unknown = { containers };
  for (const key of [...podSpecPath(w.workload.kind)].reverse()) doc = { [key]: doc };
  return `# ${w.workload.kind} ${w.namespace}/${w.workload.name}, as Tailor recommends\n${stringify(doc, { lineWidth: 0 })}`;
}
