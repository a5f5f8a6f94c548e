/**
 * Validation of built-in kinds, the rules a client can trip over: object names (RFC 1123
 * subdomain, or label for namespaces), label keys and values, pod containers (present, named,
 * unique, with an image, requests <= limits, well-formed quantities), the pod update rule (only
 * images, activeDeadlineSeconds, tolerations additions and terminationGracePeriodSeconds may change;
 * plus cpu/memory requests and limits on 1.32, where resize went through the pod itself), deployment selectors matching
 * template labels, and PDBs setting only one of minAvailable/maxUnavailable.
 */
import { isDeepStrictEqual } from 'node:util';
import { isQuantity, parseCpu, parseMemory, parseQuantity } from 'kube-basics/quantity';
import { unifiedDiff } from './unified-diff.ts';
import type { StatusCause } from './api-error.ts';
import { compileLabelSelector, matchesLabels, type LabelSelectorObject } from './label-selector.ts';
import type { ObjectValidator, ValidationContext } from './object-hooks.ts';
import { isPlainObject, type KubeObject } from './types.ts';

type Any = Record<string, unknown>;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** The pod update restriction message (1.32-1.35 wording, without the diff). */
export const POD_UPDATE_FORBIDDEN =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function validateName(o: KubeObject, label: boolean, pathSegment: boolean): StatusCause[] {
  const name = o.metadata.name ?? '';
  if (pathSegment) {
    // RBAC objects only need a valid path segment (`system:discovery` is fine).
    if (name === '.' || name === '..')
      return [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": may not be '${name}'`, field: 'metadata.name' }];
    const bad = ['/', '%'].find((c) => name.includes(c));
    return bad ? [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": may not contain '${bad}'`, field: 'metadata.name' }] : [];
  }
  const ok = label ? DNS_LABEL.test(name) && name.length <= 63 : DNS_SUBDOMAIN.test(name) && name.length <= 253;
  return ok ? [] : [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": ${label ? LABEL_MESSAGE : SUBDOMAIN_MESSAGE}`, field: 'metadata.name' }];
}

function validateLabels(labels: Record<string, string> | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    const [prefix, name] = key.includes('/') ? [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)] : ['', key];
    if (!QUALIFIED_NAME.test(name) || name.length > 63 || (prefix !== '' && !DNS_SUBDOMAIN.test(prefix))) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
        field: path,
      });
    }
    if (typeof value !== 'string' || !LABEL_VALUE.test(value) || value.length > 63) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${String(value)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
        field: `${path}`,
      });
    }
  }
  return causes;
}

function validateResources(resources: Any | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const requests = (resources?.['requests'] ?? {}) as Any;
  const limits = (resources?.['limits'] ?? {}) as Any;
  // Limits first, then requests, as ValidateContainerResourceRequirements.
  for (const [kind, map] of [
    ['limits', limits],
    ['requests', requests],
  ] as const) {
    for (const [name, value] of Object.entries(map)) {
      if (!isQuantity(value) && typeof value !== 'number') {
        causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "${String(value)}": must be a valid quantity`, field: `${path}.${kind}[${name}]` });
      } else if (parseQuantity(String(value), 3) < 0) {
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${String(value)}": must be greater than or equal to 0`,
          field: `${path}.${kind}[${name}]`,
        });
      }
    }
  }
  for (const r of ['cpu', 'memory']) {
    if (requests[r] === undefined || limits[r] === undefined) continue;
    try {
      const parse = r === 'cpu' ? parseCpu : parseMemory;
      if (parse(requests[r]) > parse(limits[r])) {
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${String(requests[r])}": must be less than or equal to ${r} limit of ${String(limits[r])}`,
          field: `${path}.requests`,
        });
      }
    } catch {
      // reported above as a malformed quantity
    }
  }
  return causes;
}

/** Container checks for a pod spec at `path` (e.g. `spec` or `spec.template.spec`). */
export function validatePodSpec(spec: Any | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const containers = spec?.['containers'];
  if (!Array.isArray(containers) || containers.length === 0) {
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${path}.containers` });
    return causes;
  }
  const seen = new Set<string>();
  for (const list of ['initContainers', 'containers']) {
    const items = spec?.[list];
    if (!Array.isArray(items)) continue;
    items.forEach((c: Any, i: number) => {
      const p = `${path}.${list}[${i}]`;
      const name = c['name'];
      if (typeof name !== 'string' || name === '') causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${p}.name` });
      else if (!DNS_LABEL.test(name)) causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": ${LABEL_MESSAGE}`, field: `${p}.name` });
      else if (seen.has(name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: "${name}"`, field: `${p}.name` });
      if (typeof name === 'string') seen.add(name);
      if (typeof c['image'] !== 'string' || c['image'] === '') causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${p}.image` });
      causes.push(...validateResources(c['resources'] as Any | undefined, `${p}.resources`));
    });
  }
  return causes;
}

function stripMutablePodFields(spec: Any, allowResources: boolean): Any {
  const copy = structuredClone(spec);
  for (const list of ['containers', 'initContainers']) {
    const items = copy[list];
    if (!Array.isArray(items)) continue;
    for (const c of items as Any[]) {
      delete c['image'];
      if (allowResources && isPlainObject(c['resources'])) {
        // 1.27-1.32 (InPlacePodVerticalScaling): only cpu and memory requests/limits may change.
        const resources = c['resources'] as Any;
        for (const kind of ['requests', 'limits']) {
          if (!isPlainObject(resources[kind])) continue;
          const rest = { ...(resources[kind] as Any) };
          delete rest['cpu'];
          delete rest['memory'];
          resources[kind] = rest;
        }
      }
    }
  }
  delete copy['activeDeadlineSeconds'];
  delete copy['terminationGracePeriodSeconds'];
  delete copy['tolerations'];
  delete copy['schedulingGates'];
  return copy;
}

/**
 * The pod update rule. Like the real server: adding or removing containers is its own error;
 * any other forbidden change is reported on `spec` with a unified diff of the old spec and the
 * new one (the mutable fields taken from the old) after the message — the real server's diff is
 * of its internal Go structs (`"Image": …`), this one of the JSON object (`"image": …`), the
 * changed values are the same lines.
 */
function validatePodUpdate(ctx: ValidationContext, allowResources: boolean): StatusCause[] {
  const oldSpec = (ctx.oldObject?.spec ?? {}) as Any;
  const newSpec = (ctx.object.spec ?? {}) as Any;
  for (const list of ['containers', 'initContainers']) {
    if (((oldSpec[list] ?? []) as unknown[]).length !== ((newSpec[list] ?? []) as unknown[]).length) {
      return [
        {
          reason: 'FieldValueForbidden',
          message: `Forbidden: pod updates may not add or remove ${list === 'containers' ? 'containers' : 'init containers'}`,
          field: `spec.${list}`,
        },
      ];
    }
  }
  const oldTolerations = (oldSpec['tolerations'] ?? []) as unknown[];
  const newTolerations = (newSpec['tolerations'] ?? []) as unknown[];
  const tolerationsOk = oldTolerations.every((t) => newTolerations.some((n) => isDeepStrictEqual(n, t)));
  const before = stripMutablePodFields(oldSpec, allowResources);
  const after = stripMutablePodFields(newSpec, allowResources);
  if (!tolerationsOk || !isDeepStrictEqual(before, after)) {
    const diff = unifiedDiff(JSON.stringify(before, null, 1), JSON.stringify(after, null, 1));
    return [{ reason: 'FieldValueForbidden', message: `${POD_UPDATE_FORBIDDEN}\n${diff}`, field: 'spec' }];
  }
  return [];
}

/** `status.observedGeneration` (and the conditions') must not be negative. */
function validatePodStatus(o: KubeObject): StatusCause[] {
  const status = (o.status ?? {}) as Any;
  const causes: StatusCause[] = [];
  const check = (value: unknown, field: string) => {
    if (typeof value === 'number' && value < 0)
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: must be a non-negative integer`, field });
  };
  check(status['observedGeneration'], 'status.observedGeneration');
  ((status['conditions'] ?? []) as Any[]).forEach((c, i) => check(c?.['observedGeneration'], `status.conditions[${i}].observedGeneration`));
  return causes;
}

function validateSelectorMatchesTemplate(o: KubeObject): StatusCause[] {
  const spec = (o.spec ?? {}) as Any;
  const selector = spec['selector'] as LabelSelectorObject | undefined;
  if (!isPlainObject(selector)) return [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }];
  const labels = ((spec['template'] as Any | undefined)?.['metadata'] as Any | undefined)?.['labels'] as Record<string, string> | undefined;
  const matcher = compileLabelSelector(selector);
  if (matcher.length === 0)
    return [{ reason: 'FieldValueInvalid', message: 'Invalid value: {}: empty selector is invalid for deployment', field: 'spec.selector' }];
  if (!matchesLabels(matcher, labels)) {
    return [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(labels ?? {})}: \`selector\` does not match template \`labels\``,
        field: 'spec.template.metadata.labels',
      },
    ];
  }
  return [];
}

/** Built-in validators; `resizeThroughPodUpdate` is true for 1.32 (resources patched on the pod). */
export function builtinValidator(options: { resizeThroughPodUpdate: boolean }): ObjectValidator {
  return (ctx) => {
    const { type, object: o } = ctx;
    if (type.crdName !== undefined) return [];
    const causes: StatusCause[] = [];
    if (ctx.operation === 'CREATE')
      causes.push(...validateName(o, type.group === '' && (type.kind === 'Namespace' || type.kind === 'Service'), type.group === 'rbac.authorization.k8s.io'));
    causes.push(...validateLabels(o.metadata.labels, 'metadata.labels'));
    const g = type.group;
    if (g === '' && type.kind === 'Pod') {
      if (ctx.subresource === '') {
        causes.push(...validatePodSpec(o.spec as Any | undefined, 'spec'));
        if (ctx.operation === 'UPDATE') causes.push(...validatePodUpdate(ctx, options.resizeThroughPodUpdate));
      }
      if (ctx.subresource === 'status') causes.push(...validatePodStatus(o));
    } else if (g === 'apps' && ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(type.kind) && ctx.subresource === '') {
      causes.push(...validateSelectorMatchesTemplate(o));
      const tpl = ((o.spec as Any | undefined)?.['template'] as Any | undefined)?.['spec'] as Any | undefined;
      causes.push(...validatePodSpec(tpl, 'spec.template.spec'));
      const replicas = (o.spec as Any | undefined)?.['replicas'];
      if (typeof replicas === 'number' && replicas < 0) {
        causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${replicas}: must be greater than or equal to 0`, field: 'spec.replicas' });
      }
      if (
        ctx.operation === 'UPDATE' &&
        ctx.oldObject &&
        !isDeepStrictEqual((ctx.oldObject.spec as Any | undefined)?.['selector'], (o.spec as Any | undefined)?.['selector'])
      ) {
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify((o.spec as Any | undefined)?.['selector'])}: field is immutable`,
          field: 'spec.selector',
        });
      }
    } else if (g === 'policy' && type.kind === 'PodDisruptionBudget') {
      const spec = (o.spec ?? {}) as Any;
      if (spec['minAvailable'] !== undefined && spec['maxUnavailable'] !== undefined) {
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(spec)}: minAvailable and maxUnavailable cannot be both set`,
          field: 'spec',
        });
      }
    }
    return causes;
  };
}
