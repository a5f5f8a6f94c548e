/**
 * Validation of VerticalPodAutoscaler objects as users write them. `validateVpa` never throws: it
 * returns either the typed, normalised object (numeric quantities such as YAML's `cpu: 1` become
 * the string `"1"`) or every problem found, each naming the field and what is wrong, so the
 * controller can set `ConfigUnsupported` and the webhook can reject at `kubectl apply` time.
 *
 * Beyond the upstream admission checks (update mode required and known, minReplicas > 0, min <= max,
 * bounds in whole millicores / bytes, RequestsAndLimits not with mode Off, one recommender; and
 * upstream 1.8's per-VPA fields with its feature gates on: evictAfterOOMSeconds >= 1,
 * oomBumpUpRatio >= 1, oomMinBumpUp >= 0, memoryAggregationInterval{Seconds,Count} >= 1, startupBoost
 * (read-startup-boost.ts); docs/decisions/0279-upstream-1.8-fields.md)
 * it also rejects what Tailor would otherwise silently ignore: fields under `spec` it does not know
 * (usually a typo such as `updatemode`), resources other than cpu and memory in a container policy,
 * and duplicate container policies (see docs/decisions/0010-vpa-validation.md).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import { RESOURCE_NAMES } from 'kube-basics/resources';
import { fieldPath, type FieldError } from './field-errors.ts';
import { Reader } from './field-reader.ts';
import { readStartupBoost } from './read-startup-boost.ts';
import {
  CHANGE_REQUIREMENTS,
  CONTAINER_MODES,
  CONTROLLED_VALUES,
  UPDATE_MODES,
  VPA_API_VERSION,
  VPA_KIND,
  type ContainerResourcePolicy,
  type CrossVersionObjectReference,
  type EvictionRequirement,
  type PodResourcePolicy,
  type PodUpdatePolicy,
  type RecommendedContainerResources,
  type ResourceList,
  type VerticalPodAutoscaler,
  type VerticalPodAutoscalerSpec,
  type VerticalPodAutoscalerStatus,
  type VpaCondition,
  type VpaObjectMeta,
  type VpaRecommenderSelector,
} from './vpa.ts';

/** The outcome of `validateVpa`. */
export type VpaValidation = { ok: true; vpa: VerticalPodAutoscaler } | { ok: false; errors: FieldError[] };

/** Validates a parsed YAML/JSON document as a VerticalPodAutoscaler. Never throws. */
export function validateVpa(input: unknown): VpaValidation {
  const errors: FieldError[] = [];
  try {
    const vpa = readVpa(new Reader(errors), input);
    if (errors.length === 0 && vpa) return { ok: true, vpa };
  } catch (err) {
    // Defensive: a bug here must become a reported problem, never a crash of the controller.
    errors.push({ path: '', message: `internal validation error: ${err instanceof Error ? err.message : String(err)}` });
  }
  return { ok: false, errors };
}

function readVpa(r: Reader, input: unknown): VerticalPodAutoscaler | undefined {
  const root = r.object(input, '', ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  if (!root) return undefined;
  if (root.apiVersion !== VPA_API_VERSION) {
    r.fail('apiVersion', `must be ${JSON.stringify(VPA_API_VERSION)}, not ${JSON.stringify(root.apiVersion)}`);
  }
  if (root.kind !== VPA_KIND) r.fail('kind', `must be ${JSON.stringify(VPA_KIND)}, not ${JSON.stringify(root.kind)}`);
  const metadata = readMetadata(r, root.metadata);
  const spec = root.spec === undefined ? r.fail('spec', 'is required') : readSpec(r, root.spec);
  const status = root.status === undefined ? undefined : readStatus(r, root.status);
  if (!metadata || !spec) return undefined;
  const vpa: VerticalPodAutoscaler = { apiVersion: VPA_API_VERSION, kind: VPA_KIND, metadata, spec };
  if (status) vpa.status = status;
  return vpa;
}

function readMetadata(r: Reader, value: unknown): VpaObjectMeta | undefined {
  if (value === undefined) return r.fail('metadata', 'is required');
  const meta = r.object(value, 'metadata');
  if (!meta) return undefined;
  const name = r.requiredString(meta.name, 'metadata.name');
  if (meta.namespace !== undefined) r.string(meta.namespace, 'metadata.namespace');
  return name === undefined ? undefined : { ...meta, name };
}

function readSpec(r: Reader, value: unknown): VerticalPodAutoscalerSpec | undefined {
  const spec = r.object(value, 'spec', ['targetRef', 'updatePolicy', 'resourcePolicy', 'recommenders', 'startupBoost']);
  if (!spec) return undefined;
  const targetRef = spec.targetRef === undefined ? r.fail('spec.targetRef', 'is required') : readTargetRef(r, spec.targetRef);
  const out: Partial<VerticalPodAutoscalerSpec> = { targetRef };
  if (spec.updatePolicy !== undefined) out.updatePolicy = readUpdatePolicy(r, spec.updatePolicy);
  if (spec.resourcePolicy !== undefined) out.resourcePolicy = readResourcePolicy(r, spec.resourcePolicy);
  if (spec.recommenders !== undefined) out.recommenders = readRecommenders(r, spec.recommenders);
  if (spec.startupBoost !== undefined && spec.startupBoost !== null) {
    const boost = readStartupBoost(r, spec.startupBoost, 'spec.startupBoost');
    if (boost) out.startupBoost = boost;
  }
  return targetRef ? (out as VerticalPodAutoscalerSpec) : undefined;
}

function readTargetRef(r: Reader, value: unknown): CrossVersionObjectReference | undefined {
  const path = 'spec.targetRef';
  const ref = r.object(value, path, ['apiVersion', 'kind', 'name']);
  if (!ref) return undefined;
  const kind = r.requiredString(ref.kind, `${path}.kind`);
  const name = r.requiredString(ref.name, `${path}.name`);
  const apiVersion = ref.apiVersion === undefined ? undefined : r.string(ref.apiVersion, `${path}.apiVersion`);
  if (kind === undefined || name === undefined) return undefined;
  return apiVersion === undefined ? { kind, name } : { apiVersion, kind, name };
}

function readUpdatePolicy(r: Reader, value: unknown): PodUpdatePolicy | undefined {
  const path = 'spec.updatePolicy';
  const policy = r.object(value, path, ['updateMode', 'minReplicas', 'evictionRequirements', 'evictAfterOOMSeconds']);
  if (!policy) return undefined;
  const out: PodUpdatePolicy = {};
  // As upstream: an updatePolicy must say its mode.
  if (policy.updateMode === undefined) r.fail(`${path}.updateMode`, 'is required when updatePolicy is set');
  else out.updateMode = r.oneOf(policy.updateMode, `${path}.updateMode`, UPDATE_MODES);
  if (policy.minReplicas !== undefined) {
    const n = policy.minReplicas;
    if (typeof n !== 'number' || !Number.isInteger(n)) r.fail(`${path}.minReplicas`, `must be an integer, not ${JSON.stringify(n)}`);
    else if (n <= 0) r.fail(`${path}.minReplicas`, `must be greater than 0, not ${n}`);
    else out.minReplicas = n;
  }
  if (policy.evictionRequirements !== undefined) {
    const items = r.list(policy.evictionRequirements, `${path}.evictionRequirements`) ?? [];
    out.evictionRequirements = items
      .map((item, i) => readEvictionRequirement(r, item, fieldPath(`${path}.evictionRequirements`, i)))
      .filter((x): x is EvictionRequirement => x !== undefined);
  }
  if (policy.evictAfterOOMSeconds !== undefined) {
    const seconds = r.integer(policy.evictAfterOOMSeconds, `${path}.evictAfterOOMSeconds`, 1);
    if (seconds !== undefined) out.evictAfterOOMSeconds = seconds;
  }
  return out;
}

function readEvictionRequirement(r: Reader, value: unknown, path: string): EvictionRequirement | undefined {
  const req = r.object(value, path, ['resources', 'changeRequirement']);
  if (!req) return undefined;
  const resources = req.resources === undefined ? r.fail(`${path}.resources`, 'is required') : r.resourceNames(req.resources, `${path}.resources`);
  if (resources && resources.length === 0) r.fail(`${path}.resources`, 'must name at least one resource');
  const changeRequirement = r.oneOf(req.changeRequirement, `${path}.changeRequirement`, CHANGE_REQUIREMENTS);
  if (!resources || !changeRequirement) return undefined;
  return { resources, changeRequirement };
}

function readResourcePolicy(r: Reader, value: unknown): PodResourcePolicy | undefined {
  const path = 'spec.resourcePolicy';
  const policy = r.object(value, path, ['containerPolicies']);
  if (!policy) return undefined;
  if (policy.containerPolicies === undefined) return {};
  const listPath = `${path}.containerPolicies`;
  const items = r.list(policy.containerPolicies, listPath) ?? [];
  const seen = new Map<string, number>();
  const containerPolicies: ContainerResourcePolicy[] = [];
  items.forEach((item, i) => {
    const itemPath = fieldPath(listPath, i);
    const cp = readContainerPolicy(r, item, itemPath);
    if (!cp) return;
    const first = seen.get(cp.containerName);
    if (first !== undefined) {
      r.fail(`${itemPath}.containerName`, `duplicate policy for container ${JSON.stringify(cp.containerName)} (first at ${fieldPath(listPath, first)})`);
      return;
    }
    seen.set(cp.containerName, i);
    containerPolicies.push(cp);
  });
  return { containerPolicies };
}

function readContainerPolicy(r: Reader, value: unknown, path: string): ContainerResourcePolicy | undefined {
  const known = [
    'containerName',
    'mode',
    'minAllowed',
    'maxAllowed',
    'controlledResources',
    'controlledValues',
    'oomBumpUpRatio',
    'oomMinBumpUp',
    'memoryAggregationIntervalSeconds',
    'memoryAggregationIntervalCount',
    'startupBoost',
  ];
  const cp = r.object(value, path, known);
  if (!cp) return undefined;
  const containerName = r.requiredString(cp.containerName, `${path}.containerName`);
  const out: Partial<ContainerResourcePolicy> = { containerName };
  if (cp.mode !== undefined) out.mode = r.oneOf(cp.mode, `${path}.mode`, CONTAINER_MODES);
  if (cp.minAllowed !== undefined) out.minAllowed = r.resourceList(cp.minAllowed, `${path}.minAllowed`, true);
  if (cp.maxAllowed !== undefined) out.maxAllowed = r.resourceList(cp.maxAllowed, `${path}.maxAllowed`, true);
  if (cp.controlledResources !== undefined) out.controlledResources = r.resourceNames(cp.controlledResources, `${path}.controlledResources`);
  if (cp.controlledValues !== undefined) out.controlledValues = r.oneOf(cp.controlledValues, `${path}.controlledValues`, CONTROLLED_VALUES);
  // As upstream: RequestsAndLimits on a container whose mode is Off is a contradiction.
  if (out.mode === 'Off' && out.controlledValues === 'RequestsAndLimits') {
    r.fail(`${path}.controlledValues`, 'must not be RequestsAndLimits when mode is "Off" (the container is not scaled)');
  }
  checkMinBelowMax(r, out.minAllowed, out.maxAllowed, path);
  readPerVpaSettings(r, cp, out, path);
  return containerName === undefined ? undefined : (out as ContainerResourcePolicy);
}

/** Upstream 1.8's per-VPA settings of a container policy (upstream's bounds), into `out`. */
function readPerVpaSettings(r: Reader, cp: Record<string, unknown>, out: Partial<ContainerResourcePolicy>, path: string): void {
  if (cp.oomBumpUpRatio !== undefined) {
    const ratio = r.plainQuantity(cp.oomBumpUpRatio, `${path}.oomBumpUpRatio`);
    if (ratio && ratio.milli < 1000)
      r.fail(`${path}.oomBumpUpRatio`, `must be greater than or equal to 1 (an OOM kill never lowers memory), not ${ratio.text}`);
    else if (ratio) out.oomBumpUpRatio = ratio.text;
  }
  if (cp.oomMinBumpUp !== undefined) {
    const bump = r.quantity('memory', cp.oomMinBumpUp, `${path}.oomMinBumpUp`);
    if (bump !== undefined) out.oomMinBumpUp = bump;
  }
  if (cp.memoryAggregationIntervalSeconds !== undefined) {
    const seconds = r.integer(cp.memoryAggregationIntervalSeconds, `${path}.memoryAggregationIntervalSeconds`, 1);
    if (seconds !== undefined) out.memoryAggregationIntervalSeconds = seconds;
  }
  if (cp.memoryAggregationIntervalCount !== undefined) {
    const count = r.integer(cp.memoryAggregationIntervalCount, `${path}.memoryAggregationIntervalCount`, 1, Number.MAX_SAFE_INTEGER);
    if (count !== undefined) out.memoryAggregationIntervalCount = count;
  }
  if (cp.startupBoost !== undefined && cp.startupBoost !== null) {
    const boost = readStartupBoost(r, cp.startupBoost, `${path}.startupBoost`);
    if (boost) out.startupBoost = boost;
  }
}

function checkMinBelowMax(r: Reader, min: ResourceList | undefined, max: ResourceList | undefined, path: string): void {
  if (!min || !max) return;
  for (const name of RESOURCE_NAMES) {
    const lo = min[name];
    const hi = max[name];
    if (lo === undefined || hi === undefined) continue;
    const parse = name === 'cpu' ? parseCpu : parseMemory;
    if (parse(lo) > parse(hi)) {
      r.fail(`${path}.maxAllowed.${name}`, `${hi} is below minAllowed.${name} ${lo}`);
    }
  }
}

function readRecommenders(r: Reader, value: unknown): VpaRecommenderSelector[] | undefined {
  const path = 'spec.recommenders';
  const items = r.list(value, path);
  if (!items) return undefined;
  // Upstream accepts at most one recommender per VPA; so do we, to stay interchangeable.
  if (items.length > 1) r.fail(path, `names ${items.length} recommenders; at most one is supported`);
  const out: VpaRecommenderSelector[] = [];
  items.forEach((item, i) => {
    const rec = r.object(item, fieldPath(path, i), ['name']);
    const name = rec && r.requiredString(rec.name, `${fieldPath(path, i)}.name`);
    if (name !== undefined) out.push({ name });
  });
  return out;
}

function readStatus(r: Reader, value: unknown): VerticalPodAutoscalerStatus | undefined {
  const status = r.object(value, 'status');
  if (!status) return undefined;
  const out: VerticalPodAutoscalerStatus = {};
  if (status.recommendation !== undefined && status.recommendation !== null) {
    const rec = r.object(status.recommendation, 'status.recommendation');
    if (rec && rec.containerRecommendations !== undefined) {
      const listPath = 'status.recommendation.containerRecommendations';
      const items = r.list(rec.containerRecommendations, listPath) ?? [];
      out.recommendation = {
        containerRecommendations: items
          .map((item, i) => readContainerRecommendation(r, item, fieldPath(listPath, i)))
          .filter((x): x is RecommendedContainerResources => x !== undefined),
      };
    } else if (rec) out.recommendation = {};
  }
  if (status.conditions !== undefined) {
    const items = r.list(status.conditions, 'status.conditions') ?? [];
    out.conditions = items.map((item, i) => readCondition(r, item, fieldPath('status.conditions', i))).filter((x): x is VpaCondition => x !== undefined);
  }
  return out;
}

function readContainerRecommendation(r: Reader, value: unknown, path: string): RecommendedContainerResources | undefined {
  const rec = r.object(value, path);
  if (!rec) return undefined;
  const containerName = r.requiredString(rec.containerName, `${path}.containerName`);
  const target = rec.target === undefined ? r.fail(`${path}.target`, 'is required') : r.resourceList(rec.target, `${path}.target`);
  if (containerName === undefined || target === undefined) return undefined;
  const out: RecommendedContainerResources = { containerName, target };
  for (const key of ['lowerBound', 'upperBound', 'uncappedTarget'] as const) {
    if (rec[key] === undefined) continue;
    const list = r.resourceList(rec[key], `${path}.${key}`);
    if (list) out[key] = list;
  }
  return out;
}

function readCondition(r: Reader, value: unknown, path: string): VpaCondition | undefined {
  const cond = r.object(value, path);
  if (!cond) return undefined;
  const type = r.requiredString(cond.type, `${path}.type`);
  const status = r.oneOf(cond.status, `${path}.status`, ['True', 'False', 'Unknown'] as const);
  if (type === undefined || status === undefined) return undefined;
  const out: VpaCondition = { type, status };
  for (const key of ['lastTransitionTime', 'reason', 'message'] as const) {
    if (cond[key] === undefined) continue;
    const s = r.string(cond[key], `${path}.${key}`);
    if (s !== undefined) out[key] = s;
  }
  return out;
}
