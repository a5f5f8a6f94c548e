// Which clusters `tailor recommend` and `tailor audit` report, from their flags (src/cli/cluster-settings.ts):
// one cluster as always without them, one per context or per label value with them, and every
// combination that cannot be meant a usage error naming the flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterPlan } from '../../src/cli/cluster-settings.ts';
import { UsageError } from '../../src/cli/exit-codes.ts';

const none = { kubeContext: [], context: [], cluster: [], clusterLabel: 'cluster', clusterName: [] };

test('without cluster flags, or with one --context, one cluster as always', () => {
  assert.deepEqual(clusterPlan(none), { kind: 'one' });
  assert.deepEqual(clusterPlan({ ...none, context: ['prod'] }), { kind: 'one', kubeContext: 'prod' });
  assert.deepEqual(clusterPlan({ ...none, kubeContext: ['prod'], context: ['prod'] }), { kind: 'one', kubeContext: 'prod' });
});

test('--context repeated or --all-contexts: one cluster per context, named by --cluster-name where given', () => {
  const plan = clusterPlan({ ...none, context: ['ctx-a', 'ctx-b', 'ctx-a'], clusterName: ['ctx-a=prod'], clusterLabel: 'k8s_cluster' });
  assert.deepEqual(plan, { kind: 'contexts', label: 'k8s_cluster', contexts: ['ctx-a', 'ctx-b'], names: new Map([['ctx-a', 'prod']]) });
  assert.deepEqual(clusterPlan({ ...none, allContexts: true, cluster: ['b'] }), {
    kind: 'contexts',
    label: 'cluster',
    contexts: 'all',
    names: new Map(),
    only: ['b'],
  });
  // One context and a --cluster: a run over clusters (the cluster column), kept to that one.
  assert.equal(clusterPlan({ ...none, context: ['a'], cluster: ['a'] }).kind, 'contexts');
});

test('--all-clusters, or --cluster alone: one cluster per label value, from Prometheus only', () => {
  assert.deepEqual(clusterPlan({ ...none, allClusters: true }), { kind: 'label', label: 'cluster', clusters: 'all' });
  assert.deepEqual(clusterPlan({ ...none, cluster: ['b', 'a', 'b'] }), { kind: 'label', label: 'cluster', clusters: ['b', 'a'] });
  assert.deepEqual(clusterPlan({ ...none, allClusters: true, cluster: ['a'] }), { kind: 'label', label: 'cluster', clusters: ['a'] });
});

test('combinations that cannot be meant are usage errors naming the flags', () => {
  const cases: Array<[Partial<Parameters<typeof clusterPlan>[0]>, RegExp]> = [
    [{ context: ['one'], kubeContext: ['two'] }, /--context "one" and --kube-context "two" name two contexts; give one/],
    [{ allContexts: true, context: ['a'] }, /--all-contexts and --context name the contexts twice/],
    [{ allClusters: true, context: ['a', 'b'] }, /--all-clusters reads the clusters from Prometheus, --context and --all-contexts from the kubeconfig/],
    [{ allClusters: true, allContexts: true }, /--all-clusters reads the clusters from Prometheus/],
    [{ clusterName: ['a=b'] }, /--cluster-name names the cluster of a context: give several --context, or --all-contexts/],
    [{ context: ['a', 'b'], clusterName: ['c=x'] }, /--cluster-name c: not among the contexts given \(a, b\)/],
    [{ context: ['a', 'b'], clusterName: ['a'] }, /--cluster-name "a": expected CONTEXT=NAME/],
    [{ allClusters: true, clusterLabel: 'k8s-cluster' }, /--cluster-label: invalid label name "k8s-cluster"/],
    [{ cluster: [''] }, /--cluster: a cluster name cannot be empty/],
  ];
  for (const [flags, message] of cases)
    assert.throws(
      () => clusterPlan({ ...none, ...flags }),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
    );
});
