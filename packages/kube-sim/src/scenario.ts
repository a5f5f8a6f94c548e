/**
 * Scenario files for `tailor sim --scenario FILE` (YAML): nodes, workloads with usage patterns,
 * faults. Validation is strict and every error names the path of the bad field, e.g.
 * `workloads[0].containers[0].usage.cpu: diurnal needs 2 values (low, high), got 1 ...`.
 * The format is documented in docs/kube-sim.md.
 */
import { parse } from 'yaml';
import { parseServerVersion, type ServerVersion } from './server-version.ts';
import { parseDuration, parseUsagePattern } from './usage/usage-pattern.ts';

import { ScenarioError, fail, list, num, obj, onlyKeys, quantity, resourceMap, str, stringMap } from './scenario-fields.ts';
import type { FaultRule } from './apiserver/fault-injection.ts';

export { ScenarioError };

export interface NodeSpec {
  name: string;
  cpu: string;
  memory: string;
  pods: number;
  labels: Record<string, string>;
  /** False: the node's kubelet predates resize (no `resources` in container statuses). */
  resizeSupport: boolean;
}

export interface ContainerSpec {
  name: string;
  image: string;
  requests?: Record<string, string>;
  limits?: Record<string, string>;
  resizePolicy?: { cpu?: 'NotRequired' | 'RestartContainer'; memory?: 'NotRequired' | 'RestartContainer' };
  usage?: { cpu?: string; memory?: string };
}

export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet' | 'Job' | 'Pod';

export interface WorkloadSpec {
  kind: WorkloadKind;
  name: string;
  namespace: string;
  replicas: number;
  labels: Record<string, string>;
  /** Annotations of its pods (the pod template's), e.g. `tailor.dev/sim-startup-cpu-seconds`. */
  annotations?: Record<string, string>;
  containers: ContainerSpec[];
}

/** A fault rule in a scenario: exactly the API server's {@link FaultRule}. */
export type FaultSpec = FaultRule;

export interface Scenario {
  serverVersion?: ServerVersion;
  speed?: number;
  seed: number;
  actuationDelayMs: number;
  nodes: NodeSpec[];
  workloads: WorkloadSpec[];
  /** Raw Kubernetes objects created as they are (namespaces, PDBs, VPAs, ...). */
  objects: Array<Record<string, unknown>>;
  faults: FaultSpec[];
}

/** The default cluster: three nodes of 4 cpu / 16Gi, no workloads. */
export function defaultScenario(): Scenario {
  return {
    seed: 1,
    actuationDelayMs: 2000,
    nodes: ['sim-node-1', 'sim-node-2', 'sim-node-3'].map((name) => ({ name, cpu: '4', memory: '16Gi', pods: 110, labels: {}, resizeSupport: true })),
    workloads: [],
    objects: [],
    faults: [],
  };
}

const KINDS: WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'Pod'];
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function parseNodes(v: unknown): NodeSpec[] {
  const nodes: NodeSpec[] = [];
  list(v, 'nodes').forEach((raw, i) => {
    const path = `nodes[${i}]`;
    const n = obj(raw, path);
    onlyKeys(n, ['name', 'count', 'cpu', 'memory', 'pods', 'labels', 'resizeSupport'], path);
    const name = str(n.name, `${path}.name`);
    if (!NAME.test(name)) fail(`${path}.name`, `${JSON.stringify(name)} is not a valid node name (lower-case letters, digits and '-')`);
    const count = num(n.count, `${path}.count`, 1, 1);
    if (n.resizeSupport !== undefined && typeof n.resizeSupport !== 'boolean') fail(`${path}.resizeSupport`, 'must be true or false');
    const base = {
      cpu: quantity(n.cpu ?? '4', `${path}.cpu`),
      memory: quantity(n.memory ?? '16Gi', `${path}.memory`),
      pods: num(n.pods, `${path}.pods`, 110, 1),
      labels: stringMap(n.labels, `${path}.labels`),
      resizeSupport: n.resizeSupport !== false,
    };
    for (let k = 0; k < count; k++) nodes.push({ ...base, name: count === 1 ? name : `${name}-${k + 1}` });
  });
  const seen = new Set<string>();
  for (const n of nodes) {
    if (seen.has(n.name)) fail('nodes', `duplicate node name ${JSON.stringify(n.name)}`);
    seen.add(n.name);
  }
  return nodes;
}

function parseContainer(raw: unknown, path: string): ContainerSpec {
  const c = obj(raw, path);
  onlyKeys(c, ['name', 'image', 'requests', 'limits', 'resizePolicy', 'usage'], path);
  const name = str(c.name, `${path}.name`);
  const out: ContainerSpec = { name, image: str(c.image, `${path}.image`, 'registry.k8s.io/pause:3.10') };
  const requests = resourceMap(c.requests, `${path}.requests`);
  const limits = resourceMap(c.limits, `${path}.limits`);
  if (requests) out.requests = requests;
  if (limits) out.limits = limits;
  if (c.resizePolicy !== undefined) {
    const rp = obj(c.resizePolicy, `${path}.resizePolicy`);
    onlyKeys(rp, ['cpu', 'memory'], `${path}.resizePolicy`);
    for (const [k, v] of Object.entries(rp)) {
      if (v !== 'NotRequired' && v !== 'RestartContainer')
        fail(`${path}.resizePolicy.${k}`, `must be NotRequired or RestartContainer, got ${JSON.stringify(v)}`);
    }
    out.resizePolicy = rp as ContainerSpec['resizePolicy'];
  }
  if (c.usage !== undefined) {
    const u = obj(c.usage, `${path}.usage`);
    onlyKeys(u, ['cpu', 'memory'], `${path}.usage`);
    for (const resource of ['cpu', 'memory'] as const) {
      if (u[resource] === undefined) continue;
      const pattern = str(u[resource], `${path}.usage.${resource}`);
      try {
        parseUsagePattern(pattern, resource);
      } catch (err) {
        fail(`${path}.usage.${resource}`, (err as Error).message);
      }
    }
    out.usage = u as ContainerSpec['usage'];
  }
  return out;
}

function parseWorkloads(v: unknown): WorkloadSpec[] {
  return list(v, 'workloads').map((raw, i) => {
    const path = `workloads[${i}]`;
    const w = obj(raw, path);
    onlyKeys(w, ['kind', 'name', 'namespace', 'replicas', 'labels', 'annotations', 'containers'], path);
    const kind = str(w.kind, `${path}.kind`, 'Deployment');
    if (!KINDS.includes(kind as WorkloadKind)) fail(`${path}.kind`, `must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    const name = str(w.name, `${path}.name`);
    if (!NAME.test(name)) fail(`${path}.name`, `${JSON.stringify(name)} is not a valid name (lower-case letters, digits and '-')`);
    const containers = list(w.containers, `${path}.containers`).map((c, j) => parseContainer(c, `${path}.containers[${j}]`));
    if (containers.length === 0) fail(`${path}.containers`, 'needs at least one container');
    return {
      kind: kind as WorkloadKind,
      name,
      namespace: str(w.namespace, `${path}.namespace`, 'default'),
      replicas: num(w.replicas, `${path}.replicas`, 1, 0),
      labels: { app: name, ...stringMap(w.labels, `${path}.labels`) },
      ...(w.annotations === undefined ? {} : { annotations: stringMap(w.annotations, `${path}.annotations`) }),
      containers,
    };
  });
}

function parseFaults(v: unknown): FaultSpec[] {
  return list(v, 'faults').map((raw, i) => {
    const path = `faults[${i}]`;
    const f = obj(raw, path);
    onlyKeys(
      f,
      ['verbs', 'resources', 'subresources', 'namespaces', 'users', 'rate', 'latency', 'error', 'retryAfterSeconds', 'dropWatchAfter', 'times'],
      path,
    );
    const strings = (key: string) => {
      const l = list(f[key], `${path}.${key}`);
      l.forEach((s, j) => str(s, `${path}.${key}[${j}]`));
      return l.length > 0 ? { [key]: l as string[] } : {};
    };
    const rate = num(f.rate, `${path}.rate`, 1);
    if (rate > 1) fail(`${path}.rate`, 'must be between 0 and 1');
    if (f.error !== undefined && ![500, 429, 409, 410].includes(f.error as number))
      fail(`${path}.error`, `must be one of 500, 429, 409, 410, got ${JSON.stringify(f.error)}`);
    const duration = (key: string) => {
      if (f[key] === undefined) return undefined;
      try {
        return parseDuration(str(f[key], `${path}.${key}`));
      } catch (err) {
        return fail(`${path}.${key}`, (err as Error).message);
      }
    };
    const latencyMs = duration('latency');
    const dropWatchAfterMs = duration('dropWatchAfter');
    return {
      ...strings('verbs'),
      ...strings('resources'),
      ...strings('subresources'),
      ...strings('namespaces'),
      ...strings('users'),
      rate,
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(f.error !== undefined ? { error: f.error as FaultSpec['error'] } : {}),
      ...(f.retryAfterSeconds !== undefined ? { retryAfterSeconds: num(f.retryAfterSeconds, `${path}.retryAfterSeconds`, 1) } : {}),
      ...(dropWatchAfterMs !== undefined ? { dropWatchAfterMs } : {}),
      ...(f.times !== undefined ? { times: num(f.times, `${path}.times`, 1, 1) } : {}),
    };
  });
}

/** Parses and validates scenario YAML text. */
export function parseScenario(text: string): Scenario {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new ScenarioError(`scenario is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const top = obj(doc ?? {}, 'scenario');
  onlyKeys(top, ['serverVersion', 'speed', 'seed', 'actuationDelay', 'nodes', 'workloads', 'objects', 'faults'], 'scenario');
  const defaults = defaultScenario();
  let serverVersion: ServerVersion | undefined;
  if (top.serverVersion !== undefined) {
    try {
      serverVersion = parseServerVersion(String(top.serverVersion));
    } catch (err) {
      fail('serverVersion', (err as Error).message);
    }
  }
  let actuationDelayMs = defaults.actuationDelayMs;
  if (top.actuationDelay !== undefined) {
    try {
      actuationDelayMs = parseDuration(String(top.actuationDelay));
    } catch (err) {
      fail('actuationDelay', (err as Error).message);
    }
  }
  const nodes = top.nodes === undefined ? defaults.nodes : parseNodes(top.nodes);
  if (nodes.length === 0) fail('nodes', 'needs at least one node');
  const objects = list(top.objects, 'objects').map((o, i) => {
    const m = obj(o, `objects[${i}]`);
    str(m.apiVersion, `objects[${i}].apiVersion`);
    str(m.kind, `objects[${i}].kind`);
    str(obj(m.metadata, `objects[${i}].metadata`).name, `objects[${i}].metadata.name`);
    return m;
  });
  const scenario: Scenario = {
    ...(serverVersion ? { serverVersion } : {}),
    ...(top.speed !== undefined ? { speed: num(top.speed, 'speed', 1, 0.001) } : {}),
    seed: num(top.seed, 'seed', defaults.seed),
    actuationDelayMs,
    nodes,
    workloads: parseWorkloads(top.workloads),
    objects,
    faults: parseFaults(top.faults),
  };
  const names = new Set<string>();
  for (const w of scenario.workloads) {
    const key = `${w.kind}/${w.namespace}/${w.name}`;
    if (names.has(key)) fail('workloads', `duplicate workload ${key}`);
    names.add(key);
  }
  return scenario;
}
