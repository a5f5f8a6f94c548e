/**
 * The YAML to copy per workload: it parses, it is a patch of the pod template's containers by
 * name, its requests are the recommendation in the units people write (m, Mi, Gi), a limit keeps
 * its ratio to the request, no limit appears where there was none, a resource without a
 * recommendation keeps its values, and each kind's pod spec is where the kind keeps it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { ResourceAudit } from '../../../src/report/audit/audit-report.ts';
import { applyHint, podSpecPath, workloadYaml } from '../../../src/report/audit/workload-yaml.ts';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

function resource(request: number | null, target: number | null, limit: number | null = null): ResourceAudit {
  return { request, limit, target, lowerBound: null, upperBound: null, waste: null, shortfall: null, verdict: 'unknown' };
}

test('a Deployment of two containers: requests are the recommendation, limits keep their ratio, none is added', () => {
  const text = workloadYaml({
    namespace: 'shop',
    workload: { kind: 'Deployment', name: 'web' },
    containers: [
      { container: 'envoy', cpu: resource(100, 46), memory: resource(128 * MiB, 80 * MiB, 256 * MiB) },
      { container: 'app', cpu: resource(500, 212, 1000), memory: resource(512 * MiB, 1217381008, GiB) },
    ],
  });
  assert.match(text, /^# Deployment shop\/web, as Tailor recommends\n/);
  const doc = parse(text) as { spec: { template: { spec: { containers: { name: string; resources: Record<string, Record<string, string>> }[] } } } };
  assert.deepEqual(doc.spec.template.spec.containers, [
    // 1217381008 bytes rounded up to whole MiB: 1161Mi; the 1Gi limit scaled by 1161/512.
    { name: 'app', resources: { requests: { cpu: '212m', memory: '1161Mi' }, limits: { cpu: '424m', memory: '2322Mi' } } },
    { name: 'envoy', resources: { requests: { cpu: '46m', memory: '80Mi' }, limits: { memory: '160Mi' } } },
  ]);
  assert.doesNotMatch(text, /\d{7,}/, 'no raw byte counts');
});

test('whole cores and GiB read as such; request equal to its limit stays equal; no recommendation keeps the current values', () => {
  const doc = parse(
    workloadYaml({
      namespace: 'batch',
      workload: { kind: 'CronJob', name: 'nightly' },
      containers: [
        { container: 'report', cpu: resource(1000, 2000, 1000), memory: resource(GiB, 2 * GiB, 2 * GiB) },
        { container: 'sidecar', cpu: resource(50, null), memory: resource(64 * MiB, null) },
      ],
    }),
  ) as { spec: { jobTemplate: { spec: { template: { spec: { containers: unknown[] } } } } } };
  // The sidecar has nothing recommended: it is left out of the patch (strategic merge keeps it).
  assert.deepEqual(doc.spec.jobTemplate.spec.template.spec.containers, [
    { name: 'report', resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '4Gi' } } },
  ]);
});

test('where each kind keeps its pod spec, and how to apply the YAML', () => {
  assert.deepEqual(podSpecPath('Pod'), ['spec']);
  assert.deepEqual(podSpecPath('StatefulSet'), ['spec', 'template', 'spec']);
  assert.deepEqual(podSpecPath('CronJob'), ['spec', 'jobTemplate', 'spec', 'template', 'spec']);
  assert.equal(
    applyHint({ namespace: 'shop', workload: { kind: 'StatefulSet', name: 'db' } }),
    'Paste into the manifest, or save as a file and run kubectl -n shop patch statefulset db --patch-file FILE',
  );
  assert.match(applyHint({ namespace: 'shop', workload: { kind: 'Pod', name: 'x' } }), /bare Pod/);
  const pod = parse(
    workloadYaml({
      namespace: 'default',
      workload: { kind: 'Pod', name: 'debug' },
      containers: [{ container: 'shell', cpu: resource(null, 15), memory: resource(null, 20 * MiB) }],
    }),
  );
  assert.deepEqual(pod, { spec: { containers: [{ name: 'shell', resources: { requests: { cpu: '15m', memory: '20Mi' } } }] } });
});
