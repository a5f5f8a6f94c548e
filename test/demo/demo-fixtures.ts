/** Small builders of cluster objects for the demo's pure view and log tests. */
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { DemoSnapshot, SnapshotEvent } from '../../src/demo/demo-snapshot.ts';
import type { NodeObject, Pod } from 'kube-sim/objects';

export interface PodShape {
  name: string;
  app: string;
  uid?: string;
  node?: string;
  cpu?: string;
  memory?: string;
  memoryLimit?: string;
  restarts?: number;
  lastReason?: string;
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
  annotations?: Record<string, string>;
  phase?: string;
}

export function pod(p: PodShape): Pod {
  return {
    metadata: {
      name: p.name,
      namespace: 'default',
      uid: p.uid ?? `uid-${p.name}`,
      labels: { app: p.app },
      ...(p.annotations ? { annotations: p.annotations } : {}),
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      containers: [
        {
          name: 'app',
          image: 'x',
          resources: { requests: { cpu: p.cpu ?? '100m', memory: p.memory ?? '128Mi' }, ...(p.memoryLimit ? { limits: { memory: p.memoryLimit } } : {}) },
        },
      ],
    },
    status: {
      phase: p.phase ?? 'Running',
      conditions: p.conditions ?? [],
      containerStatuses: [
        { name: 'app', restartCount: p.restarts ?? 0, ...(p.lastReason ? { lastState: { terminated: { reason: p.lastReason, exitCode: 137 } } } : {}) },
      ],
    },
  } as unknown as Pod;
}

export function vpa(name: string, rec?: { cpu?: [string, string, string]; memory?: [string, string, string] }): VerticalPodAutoscaler {
  const list = (i: number) => ({ ...(rec?.cpu ? { cpu: rec.cpu[i]! } : {}), ...(rec?.memory ? { memory: rec.memory[i]! } : {}) });
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace: 'default' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name } },
    ...(rec
      ? { status: { recommendation: { containerRecommendations: [{ containerName: 'app', target: list(0), lowerBound: list(1), upperBound: list(2) }] } } }
      : {}),
  } as VerticalPodAutoscaler;
}

export function updaterEvent(name: string, pod: string, reason: string, message: string): SnapshotEvent {
  return { name, reason, message, type: 'Normal', source: 'tailor-updater', involvedObject: { kind: 'Pod', namespace: 'default', name: pod } };
}

export function node(name: string, cpu: string): NodeObject {
  return { metadata: { name }, status: { allocatable: { cpu, memory: '32Gi' } } } as unknown as NodeObject;
}

export function snap(now: number, parts: Partial<DemoSnapshot>): DemoSnapshot {
  return { now, pods: [], vpas: [], events: [], nodes: [], ...parts };
}
