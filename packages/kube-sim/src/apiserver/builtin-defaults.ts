/**
 * Defaulting for built-in kinds, the part of the real server's defaulting that changes what
 * clients see: pods (requests default to limits, restartPolicy, dnsPolicy, schedulerName,
 * serviceAccountName, terminationGracePeriodSeconds, imagePullPolicy; the create-time
 * `status: {phase: Pending, qosClass}` comes from {@link prepareBuiltinForCreate}), namespaces (`status.phase: Active` and the
 * `kubernetes.io/metadata.name` label), deployments, statefulsets and replicasets (replicas 1,
 * strategy, revisionHistoryLimit), jobs (completions/parallelism/backoffLimit), services (type,
 * ports, a stable cluster IP).
 */
import type { Defaulter } from './object-hooks.ts';
import { podQosClass } from './pod-qos.ts';
import { isPlainObject, type KubeObject } from './types.ts';
import { canonicalizeResourceList } from './quantity-canonical.ts';

type Any = Record<string, unknown>;

function obj(parent: Any, key: string): Any {
  if (!isPlainObject(parent[key])) parent[key] = {};
  return parent[key] as Any;
}

function setIfMissing(target: Any, key: string, value: unknown): void {
  if (target[key] === undefined) target[key] = value;
}

function defaultContainer(c: Any): void {
  const image = typeof c['image'] === 'string' ? c['image'] : '';
  const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
  setIfMissing(c, 'imagePullPolicy', tagged || image.includes('@') ? 'IfNotPresent' : 'Always');
  setIfMissing(c, 'terminationMessagePath', '/dev/termination-log');
  setIfMissing(c, 'terminationMessagePolicy', 'File');
  if (isPlainObject(c['resources'])) {
    const resources = c['resources'] as Any;
    if (isPlainObject(resources['limits'])) {
      const limits = resources['limits'] as Any;
      const requests = obj(resources, 'requests');
      for (const [k, v] of Object.entries(limits)) setIfMissing(requests, k, v);
    }
    // Stored and returned canonically, as the real server's decoding does (`1000` -> `1k`).
    canonicalizeResourceList(resources['requests']);
    canonicalizeResourceList(resources['limits']);
  } else {
    c['resources'] = {};
  }
}

/** Defaults of a pod spec (also used for pod templates). */
export function defaultPodSpec(spec: Any): void {
  for (const list of ['containers', 'initContainers']) {
    if (Array.isArray(spec[list])) for (const c of spec[list] as unknown[]) if (isPlainObject(c)) defaultContainer(c);
  }
  setIfMissing(spec, 'restartPolicy', 'Always');
  setIfMissing(spec, 'terminationGracePeriodSeconds', 30);
  setIfMissing(spec, 'dnsPolicy', 'ClusterFirst');
  setIfMissing(spec, 'schedulerName', 'default-scheduler');
  setIfMissing(spec, 'securityContext', {});
  setIfMissing(spec, 'enableServiceLinks', true);
  setIfMissing(spec, 'serviceAccountName', typeof spec['serviceAccount'] === 'string' ? spec['serviceAccount'] : 'default');
  setIfMissing(spec, 'serviceAccount', spec['serviceAccountName']);
  setIfMissing(spec, 'priority', 0);
}

function defaultWorkload(o: KubeObject, kind: string): void {
  const spec = obj(o as Any, 'spec');
  if (kind !== 'DaemonSet') setIfMissing(spec, 'replicas', 1);
  setIfMissing(spec, 'revisionHistoryLimit', 10);
  if (kind === 'Deployment') {
    setIfMissing(spec, 'progressDeadlineSeconds', 600);
    setIfMissing(spec, 'strategy', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  }
  if (kind === 'StatefulSet') {
    setIfMissing(spec, 'podManagementPolicy', 'OrderedReady');
    setIfMissing(spec, 'updateStrategy', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  }
  if (kind === 'DaemonSet') setIfMissing(spec, 'updateStrategy', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  const template = obj(spec, 'template');
  defaultPodSpec(obj(template, 'spec'));
}

/** The defaulter for built-in kinds. */
export const builtinDefaulter: Defaulter = (o, type) => {
  if (type.crdName !== undefined) return;
  const g = type.group;
  const kind = type.kind;
  if (g === '' && kind === 'Pod') {
    defaultPodSpec(obj(o as Any, 'spec'));
  } else if (g === '' && kind === 'Namespace') {
    o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name ?? '' };
    setIfMissing(obj(o as Any, 'spec'), 'finalizers', ['kubernetes']);
  } else if (g === 'apps' && (kind === 'Deployment' || kind === 'ReplicaSet' || kind === 'StatefulSet' || kind === 'DaemonSet')) {
    defaultWorkload(o, kind);
  } else if (g === 'batch' && kind === 'Job') {
    const spec = obj(o as Any, 'spec');
    setIfMissing(spec, 'completions', 1);
    setIfMissing(spec, 'parallelism', 1);
    setIfMissing(spec, 'backoffLimit', 6);
    defaultPodSpec(obj(obj(spec, 'template'), 'spec'));
  } else if (g === 'batch' && kind === 'CronJob') {
    const spec = obj(o as Any, 'spec');
    setIfMissing(spec, 'concurrencyPolicy', 'Allow');
    setIfMissing(spec, 'suspend', false);
    setIfMissing(spec, 'successfulJobsHistoryLimit', 3);
    setIfMissing(spec, 'failedJobsHistoryLimit', 1);
  } else if (g === '' && kind === 'Service') {
    defaultService(o);
  } else if (g === '' && kind === 'Secret') {
    setIfMissing(o as Any, 'type', 'Opaque');
  }
};

/**
 * Service defaults: type ClusterIP, sessionAffinity None, TCP ports whose targetPort is the port,
 * and a cluster IP in 10.96.0.0/16 derived from namespace/name (stable, no allocator state).
 * Worked example: the FNV-1a hash of "default/web" picks 10.96.<h >> 8 & 255>.<h & 255 | 1>.
 */
function defaultService(o: KubeObject): void {
  const spec = obj(o as Any, 'spec');
  setIfMissing(spec, 'type', 'ClusterIP');
  setIfMissing(spec, 'sessionAffinity', 'None');
  if (Array.isArray(spec['ports'])) {
    for (const port of spec['ports'] as Any[]) {
      setIfMissing(port, 'protocol', 'TCP');
      setIfMissing(port, 'targetPort', port['port']);
    }
  }
  if (spec['clusterIP'] === undefined && spec['type'] !== 'ExternalName') {
    let h = 0x811c9dc5;
    for (const ch of `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    const ip = `10.96.${(h >>> 8) & 255}.${(h & 255) | 1}`;
    spec['clusterIP'] = ip;
    spec['clusterIPs'] = [ip];
    setIfMissing(spec, 'ipFamilies', ['IPv4']);
    setIfMissing(spec, 'ipFamilyPolicy', 'SingleStack');
    setIfMissing(spec, 'internalTrafficPolicy', 'Cluster');
  }
}

/**
 * Create-time status of built-in kinds, computed after mutating admission as the real
 * PrepareForCreate does: pods start `Pending` with their QoS class, namespaces `Active`.
 */
export function prepareBuiltinForCreate(o: KubeObject, type: { group: string; kind: string; crdName?: string }): void {
  if (type.crdName !== undefined || type.group !== '') return;
  if (type.kind === 'Pod') o.status = { phase: 'Pending', qosClass: podQosClass(o.spec as Any) };
  if (type.kind === 'Namespace') o.status = { phase: 'Active' };
}
