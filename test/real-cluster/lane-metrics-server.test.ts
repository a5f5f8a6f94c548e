import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as k8s from '@kubernetes/client-node';
import { metricsServerObjects } from './lane-metrics-server.ts';

test("metricsServerObjects: the APIService names the Service, whose Endpoints send port 443 to the process's address and port", () => {
  const [service, endpoints, apiService] = metricsServerObjects('10.213.1.1', 34443) as [
    k8s.V1Service,
    k8s.V1Endpoints,
    k8s.KubernetesObject & { spec: { service: { name: string; namespace: string; port: number }; group: string; version: string } },
  ];
  assert.equal(apiService.metadata!.name, 'v1beta1.metrics.k8s.io');
  assert.deepEqual([apiService.spec.group, apiService.spec.version], ['metrics.k8s.io', 'v1beta1']);
  assert.deepEqual(apiService.spec.service, { name: service.metadata!.name, namespace: service.metadata!.namespace, port: service.spec!.ports![0]!.port });
  assert.deepEqual([endpoints.metadata!.name, endpoints.metadata!.namespace], [service.metadata!.name, service.metadata!.namespace]);
  assert.equal(service.spec!.ports![0]!.targetPort, 34443);
  assert.deepEqual(endpoints.subsets, [{ addresses: [{ ip: '10.213.1.1' }], ports: [{ port: 34443 }] }]);
});
