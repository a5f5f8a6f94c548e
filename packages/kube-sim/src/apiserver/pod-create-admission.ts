/**
 * What the real server's admission adds to every pod it creates (recorded in the fidelity corpus,
 * `pod-create-defaults`), in the order of its plugins:
 * - ServiceAccount: unless `automountServiceAccountToken: false` (on the pod or its service
 *   account), a projected volume `kube-api-access-<5 random>` (token, `kube-root-ca.crt`, the
 *   namespace) mounted read-only at `/var/run/secrets/kubernetes.io/serviceaccount` in every
 *   container and init container;
 * - Priority: `preemptionPolicy: PreemptLowerPriority` (with `priority: 0` from defaulting);
 * - DefaultTolerationSeconds: NoExecute tolerations of `node.kubernetes.io/not-ready` and
 *   `…/unreachable` for 300 s, unless the pod tolerates them already.
 * Mirror (static) pods get none of the token volume, as on the real server.
 */
import type { AdmissionPlugin } from './admission.ts';
import type { ObjectStore } from './object-store.ts';
import { randomNameSuffix } from './request-pipeline.ts';
import { isPlainObject } from './types.ts';

type Any = Record<string, unknown>;

/** Where the token volume is mounted. */
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

function tokenVolume(name: string): Any {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

function mountToken(spec: Any, store: ObjectStore, namespace: string): void {
  if (spec['automountServiceAccountToken'] === false) return;
  const account = store.get('serviceaccounts', namespace, String(spec['serviceAccountName'] ?? 'default'));
  if ((account as Any | undefined)?.['automountServiceAccountToken'] === false) return;
  const containers = [...((spec['initContainers'] ?? []) as Any[]), ...((spec['containers'] ?? []) as Any[])].filter(isPlainObject);
  const mounted = (c: Any) => ((c['volumeMounts'] ?? []) as Any[]).some((m) => m['mountPath'] === SERVICE_ACCOUNT_MOUNT_PATH);
  if (containers.every(mounted)) return;
  const name = `kube-api-access-${randomNameSuffix()}`;
  spec['volumes'] = [...((spec['volumes'] ?? []) as Any[]), tokenVolume(name)];
  for (const c of containers) {
    if (!mounted(c)) c['volumeMounts'] = [...((c['volumeMounts'] ?? []) as Any[]), { name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }];
  }
}

function addTolerations(spec: Any): void {
  const tolerations = (spec['tolerations'] ?? []) as Any[];
  const tolerates = (key: string) =>
    tolerations.some(
      (t) =>
        (t['operator'] === 'Exists' && t['key'] === undefined) ||
        (t['key'] === key && (t['effect'] === undefined || t['effect'] === '' || t['effect'] === 'NoExecute')),
    );
  const added = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']
    .filter((key) => !tolerates(key))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
  if (added.length > 0) spec['tolerations'] = [...tolerations, ...added];
}

/** The plugin (mutating, pods on CREATE), active while `enabled()` (the server's `podCreateDefaults` setting). */
export function podCreateAdmissionPlugin(store: ObjectStore, enabled: () => boolean): AdmissionPlugin {
  return {
    name: 'PodCreateDefaults',
    mutate(a) {
      if (!enabled()) return;
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.operation !== 'CREATE' || !a.object) return;
      if (!isPlainObject(a.object.spec)) return;
      const spec = a.object.spec as Any;
      const mirror = a.object.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined;
      if (!mirror) mountToken(spec, store, a.namespace);
      if (spec['preemptionPolicy'] === undefined) spec['preemptionPolicy'] = 'PreemptLowerPriority';
      addTolerations(spec);
    },
  };
}
