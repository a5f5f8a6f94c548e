/**
 * Creates or replaces the webhook configurations through the API, so their `caBundle` and endpoint
 * stay those of the running webhook. Replace is a read-modify-write with the object's
 * resourceVersion, retried on conflicts (several replicas write the same content); labels and
 * annotations others set (an installer's) are kept.
 */
import type { KubeConfig, V1MutatingWebhookConfiguration, V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { admissionregistrationApi } from '../kube/kube-apis.ts';
import { classifyApiError, KubeApiError } from '../kube/errors.ts';
import { retryConflicts, withRetry } from '../kube/retry.ts';

interface Configurations {
  mutating: V1MutatingWebhookConfiguration;
  /** Absent in the upstream layout (its one mutating webhook validates VPAs too). */
  validating?: V1ValidatingWebhookConfiguration;
}

type Metadata = { name?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> };

/**
 * The metadata a replace sends: the desired name and labels over the labels and annotations already
 * there, with the object's resourceVersion. An installer's own (Helm's `app.kubernetes.io/managed-by`
 * and `meta.helm.sh/release-name`) survive the webhook's writes, so `helm upgrade` and `uninstall`
 * still find the object theirs.
 */
export function keptMetadata(current: Metadata | undefined, desired: Metadata | undefined): Metadata {
  const labels = { ...current?.labels, ...desired?.labels };
  const annotations = { ...current?.annotations, ...desired?.annotations };
  return {
    ...desired,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(current?.resourceVersion !== undefined ? { resourceVersion: current.resourceVersion } : {}),
  };
}

async function upsert<T extends { metadata?: Metadata }>(
  what: string,
  desired: T,
  read: (name: string) => Promise<T>,
  create: (body: T) => Promise<unknown>,
  replace: (name: string, body: T) => Promise<unknown>,
): Promise<void> {
  const name = desired.metadata!.name!;
  await withRetry(
    async () => {
      let current: T | undefined;
      try {
        current = await read(name);
      } catch (err) {
        if (classifyApiError(err).kind !== 'notFound') throw new KubeApiError(`reading ${what} ${name}`, err);
      }
      try {
        if (!current) await create(desired);
        else await replace(name, { ...desired, metadata: keptMetadata(current.metadata, desired.metadata) });
      } catch (err) {
        throw new KubeApiError(`${current ? 'replacing' : 'creating'} ${what} ${name}`, err);
      }
    },
    { retryOn: (e) => retryConflicts(e) || e.kind === 'alreadyExists' },
  );
}

/** Writes the configurations (the mutating one, then the validating one if any). Throws KubeApiError. */
export async function registerWebhooks(kubeConfig: KubeConfig, configurations: Configurations, fieldManager: string): Promise<void> {
  const api = admissionregistrationApi(kubeConfig);
  await upsert(
    'MutatingWebhookConfiguration',
    configurations.mutating,
    (name) => api.readMutatingWebhookConfiguration({ name }),
    (body) => api.createMutatingWebhookConfiguration({ body, fieldManager }),
    (name, body) => api.replaceMutatingWebhookConfiguration({ name, body, fieldManager }),
  );
  if (!configurations.validating) return;
  await upsert(
    'ValidatingWebhookConfiguration',
    configurations.validating,
    (name) => api.readValidatingWebhookConfiguration({ name }),
    (body) => api.createValidatingWebhookConfiguration({ body, fieldManager }),
    (name, body) => api.replaceValidatingWebhookConfiguration({ name, body, fieldManager }),
  );
}
