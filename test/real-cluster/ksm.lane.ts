/**
 * kube-state-metrics (built from k8s.io/kube-state-metrics/v2, run on this machine by ksm.sh) against
 * the real cluster, with the custom-resource-state config Tailor ships for VPAs
 * (manifests/monitoring/kube-state-metrics-vpa.yaml): a VPA's recommendation, written into its
 * status, comes out as numbers (cores, bytes) under the metric names that file documents.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { dropNamespace, freshNamespace, installVpaCrd, laneKubeConfig, waitFor } from './lane-cluster.ts';

const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
let namespace = '';
let url = '';

before(async () => {
  await installVpaCrd(kc);
  namespace = await freshNamespace(core, 'lane-ksm');
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace,
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'InPlaceOrRecreate' } },
    },
  });
  await custom.patchNamespacedCustomObjectStatus(
    {
      ...VPA,
      namespace,
      name: 'web',
      body: {
        status: {
          recommendation: {
            containerRecommendations: [
              {
                containerName: 'app',
                target: { cpu: '250m', memory: '96Mi' },
                lowerBound: { cpu: '200m', memory: '64Mi' },
                upperBound: { cpu: '1', memory: '256Mi' },
              },
            ],
          },
        },
      },
    },
    MERGE,
  );
  url = execFileSync('bash', ['test/real-cluster/ksm.sh', 'start'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
});
after(async () => {
  execFileSync('bash', ['test/real-cluster/ksm.sh', 'stop']);
  if (namespace) await dropNamespace(core, namespace);
});

/** The value of the first sample of `name` whose labels include every `labels` pair. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [, body = '', value = ''] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? [];
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(value);
  }
  return undefined;
}

test("a VPA's recommendation in kube-state-metrics: cores and bytes under the documented names", async () => {
  const target = 'kube_customresource_verticalpodautoscaler_status_recommendation_containerrecommendations_target';
  const lower = 'kube_customresource_verticalpodautoscaler_status_recommendation_containerrecommendations_lowerbound';
  let text = '';
  // kube-state-metrics finds the CRD through discovery, then lists the VPAs: allow it a while.
  await waitFor(
    'the VPA target cpu in /metrics',
    120_000,
    async () => {
      text = await fetch(url).then((r) => r.text());
      return sample(text, target, { namespace, resource: 'cpu' }) !== undefined ? true : undefined;
    },
    () =>
      text
        .split('\n')
        .filter((l) => l.includes('verticalpodautoscaler'))
        .slice(0, 10)
        .join('\n') || `${text.length} bytes, no VPA metric`,
  );
  const vpa = { namespace, verticalpodautoscaler: 'web', target_kind: 'Deployment', target_name: 'web' };
  const labels = { ...vpa, container: 'app' };
  assert.equal(sample(text, target, { ...labels, resource: 'cpu', unit: 'core' }), 0.25);
  assert.equal(sample(text, target, { ...labels, resource: 'memory', unit: 'byte' }), 96 * 1024 * 1024);
  assert.equal(sample(text, lower, { ...labels, resource: 'cpu', unit: 'core' }), 0.2);
  assert.equal(sample(text, lower, { ...labels, resource: 'memory', unit: 'byte' }), 64 * 1024 * 1024);
  assert.equal(sample(text, 'kube_customresource_verticalpodautoscaler_spec_updatepolicy_updatemode', { ...vpa, update_mode: 'InPlaceOrRecreate' }), 1);
  // kube-state-metrics' own objects too (what a scrape of it gives the other dashboards); each
  // resource has its own store, filled by its own list, so this one may come a scrape later.
  const phase = await waitFor("the namespace's phase in /metrics", 60_000, async () =>
    sample(await fetch(url).then((r) => r.text()), 'kube_namespace_status_phase', { namespace, phase: 'Active' }),
  );
  assert.equal(phase, 1);
});
