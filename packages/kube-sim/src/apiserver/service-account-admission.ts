/**
 * The ServiceAccount admission plugin for pods: on CREATE the pod's service account (defaulted to
 * `default`) must exist in its namespace, else 403
 * `pods "web" is forbidden: error looking up service account shop/robot: serviceaccount "robot" not found`.
 * The `default` account exists in every namespace (a controller creates it with the namespace).
 */
import type { AdmissionPlugin } from './admission.ts';
import { forbidden } from './api-error.ts';
import type { ObjectStore } from './object-store.ts';

/** The plugin. */
export function serviceAccountPlugin(store: ObjectStore): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    validate(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.operation !== 'CREATE' || !a.object) return;
      const name = (a.object.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? 'default';
      if (store.get('serviceaccounts', a.namespace, name)) return;
      throw forbidden(
        { resource: 'pods', group: '', name: a.name },
        `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`,
      );
    },
  };
}
