/**
 * Which admission webhooks a request goes to: `rules` (operations, apiGroups, apiVersions,
 * resources with subresource forms `pods/status`, `pods/<any>`, `*` (no subresources),
 * `<any>/scale`, `<any>/<any>` written with asterisks, and scope), `namespaceSelector` (labels of the request's namespace; for a Namespace
 * object its own labels) and `objectSelector` (labels of the object or the old object).
 */
import { compileLabelSelector, matchesLabels, type LabelSelectorObject } from './label-selector.ts';
import type { AdmissionAttributes } from './admission.ts';

/** One rule of a webhook (RuleWithOperations). */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: 'Cluster' | 'Namespaced' | '*';
}

/** The fields of a webhook that decide whether it is called. */
export interface WebhookMatchSpec {
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
}

function listMatches(list: string[] | undefined, value: string): boolean {
  return (list ?? []).some((v) => v === '*' || v === value);
}

/** True when a resources entry covers resource/subresource. */
export function resourceEntryMatches(entry: string, resource: string, subresource: string): boolean {
  if (entry === '*/*') return true;
  if (subresource === '') return entry === '*' || entry === resource;
  return entry === `${resource}/${subresource}` || entry === `${resource}/*` || entry === `*/${subresource}`;
}

/** True when one rule matches the request. */
export function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  if (!listMatches(rule.operations, a.operation)) return false;
  if (!listMatches(rule.apiGroups, a.group)) return false;
  if (!listMatches(rule.apiVersions, a.version)) return false;
  if (!(rule.resources ?? []).some((r) => resourceEntryMatches(r, a.resource, a.subresource))) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.type.namespaced) return false;
  if (scope === 'Namespaced' && !a.type.namespaced) return false;
  return true;
}

/** True when the webhook is to be called for the request. */
export function webhookMatches(spec: WebhookMatchSpec, a: AdmissionAttributes, namespaceLabels: Record<string, string> | undefined): boolean {
  if (!(spec.rules ?? []).some((r) => ruleMatches(r, a))) return false;
  if (spec.namespaceSelector) {
    const isNamespace = a.group === '' && a.resource === 'namespaces';
    const labels = isNamespace ? (a.object ?? a.oldObject)?.metadata.labels : a.type.namespaced ? namespaceLabels : undefined;
    if (a.type.namespaced || isNamespace) {
      if (!matchesLabels(compileLabelSelector(spec.namespaceSelector), labels)) return false;
    }
  }
  if (spec.objectSelector) {
    const matcher = compileLabelSelector(spec.objectSelector);
    const objectOk = a.object ? matchesLabels(matcher, a.object.metadata?.labels) : false;
    const oldOk = a.oldObject ? matchesLabels(matcher, a.oldObject.metadata.labels) : false;
    if (!objectOk && !oldOk) return false;
  }
  return true;
}
