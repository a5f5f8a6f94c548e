/**
 * The early memory warnings as Prometheus rules, as code: one group, written by
 * `npm run rules:build` both as a plain rule file (manifests/monitoring/rules/, for `rule_files:`)
 * and as a Prometheus Operator `PrometheusRule` (manifests/monitoring/prometheus-rule.yaml, in the
 * monitoring kustomization). The thresholds are Tailor's own (src/policy/memory-warning-thresholds.ts):
 * - recording `tailor:container_memory_working_set:limit_ratio{namespace,pod,container}`: cAdvisor's
 *   working set over kube-state-metrics' memory limit (containers without a limit have none);
 * - recording `tailor:pod_workload:owner{namespace,pod,workload_kind,workload}`: each pod's top-most
 *   workload (Pod -> ReplicaSet -> Deployment; a pod without an owner is its own workload);
 * - alert `TailorContainerMemoryHigh` (warning): the ratio stays above 75% for 5 min;
 * - alert `TailorContainerMemoryCritical` (critical): above 85% for 2 min;
 * - alert `TailorWorkloadMemoryPressure` (warning): 2 or more pods of one workload above 75% at once, for 5 min.
 * manifests/monitoring/rules/tailor-memory-warnings.tests.yaml holds the `promtool test rules` cases.
 */
import { stringify } from 'yaml';
import { packageFile } from '../api/package-files.ts';
import { MEMORY_WARNING_THRESHOLDS, type MemoryWarningThresholds } from '../policy/memory-warning-thresholds.ts';

export const RULES_FILE = packageFile('manifests/monitoring/rules/tailor-memory-warnings.rules.yaml');
export const PROMETHEUS_RULE_FILE = packageFile('manifests/monitoring/prometheus-rule.yaml');

export const RATIO_RECORD = 'tailor:container_memory_working_set:limit_ratio';
export const WORKLOAD_RECORD = 'tailor:pod_workload:owner';

/** A recording or alerting rule as Prometheus reads it. */
export type Rule =
  { record: string; expr: string } | { alert: string; expr: string; for: string; labels: Record<string, string>; annotations: Record<string, string> };

export interface RuleGroup {
  name: string;
  rules: Rule[];
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/** `label_replace` applied in order: [dst, replacement, src, regex]. */
function relabel(expr: string, ...steps: [string, string, string, string][]): string {
  return steps.reduce((e, [dst, repl, src, regex]) => `label_replace(${e}, "${dst}", "${repl}", "${src}", "${regex}")`, expr);
}

const OWNER_KEYS = 'namespace, pod, workload_kind, workload';

/** Each pod's top-most workload, from kube-state-metrics' owner series. */
function workloadExpr(): string {
  // A ReplicaSet's owner (usually a Deployment), keyed by owner_name = the ReplicaSet's name.
  const replicaSetOwner = [
    relabel(
      'kube_replicaset_owner{owner_kind!="<none>", owner_kind!=""}',
      ['workload_kind', '$1', 'owner_kind', '(.+)'],
      ['workload', '$1', 'owner_name', '(.+)'],
      ['owner_name', '$1', 'replicaset', '(.+)'],
    ),
    relabel(
      'kube_replicaset_owner{owner_kind=~"<none>|"}',
      ['workload_kind', 'ReplicaSet', '', ''],
      ['workload', '$1', 'replicaset', '(.+)'],
      ['owner_name', '$1', 'replicaset', '(.+)'],
    ),
  ].join(' or ');
  return [
    `max by (${OWNER_KEYS}) (${relabel('kube_pod_owner{owner_kind!~"ReplicaSet|<none>|"}', ['workload_kind', '$1', 'owner_kind', '(.+)'], ['workload', '$1', 'owner_name', '(.+)'])})`,
    `max by (${OWNER_KEYS}) (kube_pod_owner{owner_kind="ReplicaSet"} * on (namespace, owner_name) group_left (workload_kind, workload) max by (namespace, owner_name, workload_kind, workload) (${replicaSetOwner}))`,
    `max by (${OWNER_KEYS}) (${relabel('kube_pod_owner{owner_kind=~"<none>|"}', ['workload_kind', 'Pod', '', ''], ['workload', '$1', 'pod', '(.+)'])})`,
  ].join('\nor\n');
}

/** The rule group for the thresholds (default: Tailor's). */
export function memoryWarningRules(t: MemoryWarningThresholds = MEMORY_WARNING_THRESHOLDS): RuleGroup {
  const ratio = RATIO_RECORD;
  const where = '{{ $labels.namespace }}/{{ $labels.pod }} container {{ $labels.container }}';
  return {
    name: 'tailor-memory-warnings',
    rules: [
      {
        record: ratio,
        expr:
          'max by (namespace, pod, container) (container_memory_working_set_bytes{container!="", container!="POD"})\n' +
          '/ on (namespace, pod, container)\n' +
          'max by (namespace, pod, container) (kube_pod_container_resource_limits{resource="memory", unit="byte"} > 0)',
      },
      { record: WORKLOAD_RECORD, expr: workloadExpr() },
      {
        alert: 'TailorContainerMemoryHigh',
        expr: `${ratio} > ${t.warningRatio}`,
        for: t.warningFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: `Container working set above ${percent(t.warningRatio)} of its memory limit`,
          description: `${where} has used {{ $value | humanizePercentage }} of its memory limit for ${t.warningFor}; Tailor's updater raises memory in place at 90% (its pressure guard, by default) for pods it manages.`,
        },
      },
      {
        alert: 'TailorContainerMemoryCritical',
        expr: `${ratio} > ${t.criticalRatio}`,
        for: t.criticalFor,
        labels: { severity: 'critical' },
        annotations: {
          summary: `Container working set above ${percent(t.criticalRatio)} of its memory limit`,
          description: `${where} has used {{ $value | humanizePercentage }} of its memory limit for ${t.criticalFor}: close to an OOM kill.`,
        },
      },
      {
        alert: 'TailorWorkloadMemoryPressure',
        expr:
          `count by (namespace, workload_kind, workload) (\n` +
          `  max by (${OWNER_KEYS}) ((${ratio} > ${t.warningRatio}) * on (namespace, pod) group_left (workload_kind, workload) ${WORKLOAD_RECORD})\n` +
          `) >= ${t.workloadPods}`,
        for: t.workloadFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: `Several pods of one workload above ${percent(t.warningRatio)} of their memory limit`,
          description: `{{ $value }} pods of {{ $labels.workload_kind }} {{ $labels.namespace }}/{{ $labels.workload }} have been above ${percent(t.warningRatio)} of their memory limit at once for ${t.workloadFor}: the workload's memory is too small, not one pod.`,
        },
      },
    ],
  };
}

const HEADER = '# Generated by `npm run rules:build` from src/dashboard/memory-alert-rules.ts; do not edit by hand.\n';

/** The plain Prometheus rule file's text. */
export function rulesFileText(group: RuleGroup = memoryWarningRules()): string {
  return HEADER + stringify({ groups: [group] }, { lineWidth: 0 });
}

/** The PrometheusRule object's text (Prometheus Operator, monitoring.coreos.com/v1). */
export function prometheusRuleText(group: RuleGroup = memoryWarningRules()): string {
  const object = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'tailor-memory-warnings', namespace: 'tailor-system', labels: { 'app.kubernetes.io/name': 'tailor' } },
    spec: { groups: [group] },
  };
  return HEADER + stringify(object, { lineWidth: 0 });
}
