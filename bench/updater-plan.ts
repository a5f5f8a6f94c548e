/**
 * CPU cost of the updater's pure planning (no API calls): `plan()` over VPAs x pods.
 *   node --import tsx bench/updater-plan.ts [vpas] [podsPerVpa] [rounds]
 * Defaults 1000 VPAs x 2 pods (the size of issue 7's benchmark). Pods are varied so that every kind
 * of decision occurs (in-place resizes, restarts, evictions, waits, skips). Prints the time of one
 * plan and the decisions by action. The end-to-end loop benchmark (API calls, kube-sim) is separate.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../src/api/vpa.ts';
import { updaterOptions } from '../src/policy/update-thresholds.ts';
import { plan, type WorkloadGroup } from '../src/updater/updater-plan.ts';
import { serverCapabilities } from '../src/updater/server-capabilities.ts';

const vpas = Number(process.argv[2] ?? 1000);
const podsPerVpa = Number(process.argv[3] ?? 2);
const rounds = Number(process.argv[4] ?? 5);
const now = Date.UTC(2026, 5, 1, 12);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const modes = ['InPlaceOrRecreate', 'InPlace', 'Recreate', 'Off'] as const;

function makePod(ns: string, name: string, i: number, j: number): V1Pod {
  const cpu = `${100 + ((i * 37 + j * 11) % 900)}m`;
  const memory = `${256 + ((i * 13 + j) % 8) * 128}Mi`;
  const resources = { requests: { cpu, memory }, limits: { memory: '2Gi' } };
  const p: V1Pod = {
    metadata: { name, namespace: ns, generation: 1, labels: { 'pod-template-hash': 'h' } },
    spec: {
      containers: [
        { name: 'app', image: 'x', resources, ...(i % 5 === 0 ? { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] } : {}) },
      ],
    },
    status: {
      phase: 'Running',
      startTime: iso(now - ((i % 48) + 1) * 3_600_000) as unknown as Date,
      conditions:
        i % 17 === 0 ? [{ type: 'PodResizePending', status: 'True', reason: 'Deferred', lastTransitionTime: iso(now - 600_000) as unknown as Date }] : [],
      containerStatuses: [{ name: 'app', image: 'x', imageID: 'x', ready: true, restartCount: 0, state: { running: {} }, resources }],
    },
  };
  return p;
}

function makeVpa(ns: string, i: number): VerticalPodAutoscaler {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: `w${i}`, namespace: ns },
    spec: { targetRef: { kind: 'Deployment', name: `w${i}` }, updatePolicy: { updateMode: modes[i % modes.length] } },
    status: {
      recommendation: {
        containerRecommendations: [
          {
            containerName: 'app',
            target: { cpu: '400m', memory: '512Mi' },
            lowerBound: { cpu: '300m', memory: '384Mi' },
            upperBound: { cpu: '800m', memory: '1Gi' },
          },
        ],
      },
    },
  };
}

const groups: WorkloadGroup[] = [];
for (let i = 0; i < vpas; i++) {
  const ns = `ns${i % 50}`;
  const pods = Array.from({ length: podsPerVpa }, (_, j) => makePod(ns, `w${i}-h-${j}`, i, j));
  groups.push({
    workload: `Deployment/${ns}/w${i}`,
    vpa: makeVpa(ns, i),
    pods,
    usage: Object.fromEntries(pods.map((p) => [p.metadata!.name!, { app: { memoryPeakBytes: 300 * 1024 * 1024 } }])),
  });
}
const input = { options: updaterOptions(), capabilities: serverCapabilities({ major: 1, minor: 34 }), now, groups, budget: { resizes: 500, evictions: 100 } };

plan(input); // warm-up
const times: number[] = [];
let decisions = plan(input);
for (let r = 0; r < rounds; r++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  decisions = plan(input);
  times.push(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  if (r === rounds - 1) console.log(`last round CPU time: ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms`);
}
const counts = new Map<string, number>();
for (const d of decisions) counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
times.sort((a, b) => a - b);
console.log(`${vpas} VPAs x ${podsPerVpa} pods = ${decisions.length} decisions`);
console.log(`plan(): median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)} ms over ${rounds} rounds`);
console.log(`decisions: ${[...counts].map(([a, n]) => `${a} ${n}`).join(', ')}`);
