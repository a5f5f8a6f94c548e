/**
 * Admission webhooks from the MutatingWebhookConfiguration and ValidatingWebhookConfiguration
 * objects in the store, as two admission plugins. Mutating webhooks run in order (configurations
 * by name, webhooks in list order) and their JSON Patches are applied to the object; validating
 * webhooks run in parallel. A webhook with `reinvocationPolicy: IfNeeded` runs once more when a
 * later webhook changed the object. `failurePolicy: Ignore` skips a failed call, `Fail` (the default)
 * rejects the request with 500 `failed calling webhook "<name>": ...`. A denial becomes
 * `admission webhook "<name>" denied the request: <message>` with the webhook's code (at least
 * 400). Webhook configurations themselves are never sent to webhooks. A dry-run request reaching
 * a webhook whose sideEffects are not None/NoneOnDryRun is a 400, as in the real server.
 */
import { randomUUID } from 'node:crypto';
import fastJsonPatch from 'fast-json-patch';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { ApiError, internalError } from './api-error.ts';
import type { ObjectStore } from './object-store.ts';
import { callWebhook, type AdmissionResponse, type ServiceResolver, type WebhookClientConfig } from './webhook-client.ts';
import { webhookMatches, type WebhookMatchSpec } from './webhook-rules.ts';
import type { KubeObject } from './types.ts';

const MUTATING_KEY = 'mutatingwebhookconfigurations.admissionregistration.k8s.io';
const VALIDATING_KEY = 'validatingwebhookconfigurations.admissionregistration.k8s.io';

interface Webhook extends WebhookMatchSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  failurePolicy?: 'Ignore' | 'Fail';
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  sideEffects?: string;
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

/** The GroupVersionKind a subresource request carries in the review. */
function requestKind(a: AdmissionAttributes): { group: string; version: string; kind: string } {
  if (a.subresource === 'eviction') return { group: 'policy', version: 'v1', kind: 'Eviction' };
  if (a.subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  if (a.subresource === 'binding') return { group: '', version: 'v1', kind: 'Binding' };
  return { group: a.group, version: a.version, kind: a.type.kind };
}

/** The AdmissionReview v1 request for the attributes. */
export function buildAdmissionReview(a: AdmissionAttributes): Record<string, unknown> {
  const kind = requestKind(a);
  const resource = { group: a.group, version: a.version, resource: a.resource };
  const request: Record<string, unknown> = {
    uid: randomUUID(),
    kind,
    resource,
    requestKind: kind,
    requestResource: resource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: a.user.username, ...(a.user.uid ? { uid: a.user.uid } : {}), groups: a.user.groups },
    object: a.operation === 'DELETE' ? null : (a.object ?? null),
    oldObject: a.operation === 'CREATE' || a.operation === 'CONNECT' ? null : (a.oldObject ?? null),
    dryRun: a.dryRun,
    options: {
      apiVersion: 'meta.k8s.io/v1',
      kind: a.operation === 'CREATE' ? 'CreateOptions' : a.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions',
      ...(a.options ?? {}),
    },
  };
  if (a.subresource) {
    request['subResource'] = a.subresource;
    request['requestSubResource'] = a.subresource;
  }
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request };
}

function denial(webhook: string, response: AdmissionResponse): ApiError {
  const status = response.status ?? {};
  const code = Math.max(400, status.code ?? 0);
  const by = `admission webhook "${webhook}" denied the request`;
  const message = status.message ? `${by}: ${status.message}` : status.reason ? `${by}: ${status.reason}` : `${by} without explanation`;
  return new ApiError(code, status.reason ?? '', message);
}

/** Builds the mutating and validating webhook plugins over a store. */
export function webhookAdmissionPlugins(store: ObjectStore, resolveService: () => ServiceResolver): { mutating: AdmissionPlugin; validating: AdmissionPlugin } {
  const webhooksOf = (key: string): Webhook[] => store.list(key).flatMap((config) => (config as { webhooks?: Webhook[] }).webhooks ?? []);

  const applicable = (key: string, a: AdmissionAttributes): Webhook[] => {
    if (a.group === 'admissionregistration.k8s.io') return [];
    const hooks = webhooksOf(key);
    if (hooks.length === 0) return [];
    const namespaceLabels = a.namespace ? store.get('namespaces', '', a.namespace)?.metadata.labels : undefined;
    return hooks.filter((w) => webhookMatches(w, a, namespaceLabels));
  };

  const call = async (webhook: Webhook, a: AdmissionAttributes): Promise<AdmissionResponse | undefined> => {
    if (a.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') {
      throw new ApiError(400, 'BadRequest', `admission webhook "${webhook.name}" does not support dry run`);
    }
    const review = buildAdmissionReview(a);
    const uid = (review['request'] as { uid: string }).uid;
    const timeout = Math.min(30, Math.max(1, webhook.timeoutSeconds ?? 10));
    try {
      if (!(webhook.admissionReviewVersions ?? []).includes('v1')) {
        throw new Error(`webhook does not accept v1 AdmissionReview (accepts ${JSON.stringify(webhook.admissionReviewVersions ?? [])})`);
      }
      const response = await callWebhook(webhook.clientConfig, review, timeout, resolveService());
      if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid}"`);
      for (const warning of response.warnings ?? []) a.warnings?.push(warning);
      return response;
    } catch (err) {
      if (webhook.failurePolicy === 'Ignore') return undefined;
      throw internalError(`failed calling webhook "${webhook.name}": ${(err as Error).message}`, err);
    }
  };

  /** Runs one mutating webhook and applies its patch (a skipped call changes nothing). */
  const mutateWith = async (webhook: Webhook, a: AdmissionAttributes): Promise<void> => {
    const response = await call(webhook, a);
    if (!response) return;
    if (!response.allowed) throw denial(webhook.name, response);
    if (!response.patch || !a.object) return;
    if (response.patchType !== 'JSONPatch') {
      if (webhook.failurePolicy === 'Ignore') return;
      throw internalError(`failed calling webhook "${webhook.name}": unsupported patch type "${response.patchType ?? ''}"`);
    }
    try {
      const ops = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8')) as fastJsonPatch.Operation[];
      a.object = fastJsonPatch.applyPatch(structuredClone(a.object), ops, true, false).newDocument as KubeObject;
    } catch (err) {
      if (webhook.failurePolicy === 'Ignore') return;
      throw internalError(`failed calling webhook "${webhook.name}": JSON patch failed: ${(err as Error).message}`, err);
    }
  };

  const mutating: AdmissionPlugin = {
    name: 'MutatingAdmissionWebhook',
    async mutate(a) {
      const hooks = applicable(MUTATING_KEY, a);
      const after: string[] = [];
      for (const webhook of hooks) {
        await mutateWith(webhook, a);
        after.push(JSON.stringify(a.object ?? null));
      }
      // reinvocationPolicy IfNeeded: a webhook runs once more when a later one changed the object.
      const final = JSON.stringify(a.object ?? null);
      for (const [i, webhook] of hooks.entries()) {
        if (webhook.reinvocationPolicy === 'IfNeeded' && after[i] !== final) await mutateWith(webhook, a);
      }
    },
  };

  const validating: AdmissionPlugin = {
    name: 'ValidatingAdmissionWebhook',
    async validate(a) {
      const hooks = applicable(VALIDATING_KEY, a);
      const responses = await Promise.all(hooks.map(async (webhook) => ({ webhook, response: await call(webhook, a) })));
      for (const { webhook, response } of responses) {
        if (response && !response.allowed) throw denial(webhook.name, response);
      }
    },
  };
  return { mutating, validating };
}
