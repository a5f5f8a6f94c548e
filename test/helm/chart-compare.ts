/**
 * The chart's objects against the kustomize manifests': what `helm template` renders, normalized
 * for the differences docs/helm.md lists, and compared object by object (kind, namespace, name, and
 * then every field: containers' image, args and env, RBAC rules, webhook configurations, ...).
 *
 * The documented differences, undone before comparing:
 * - Helm's labels (HELM_LABELS) on every object's metadata (not on pod templates or selectors);
 * - ConfigMap `tailor-config` keeps its name (kustomize's generator adds a hash suffix, which the
 *   Deployments' envFrom then names), and the pod templates carry annotation `checksum/config`.
 */
import { execFile } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { parseManifests, type Manifest } from '../manifests/kustomize.ts';

/** The labels the chart adds to every object it templates (not to the CRDs of crds/). */
export const HELM_LABELS = ['helm.sh/chart', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/instance', 'app.kubernetes.io/version'] as const;
/** The pod template annotation that rolls the pods when ConfigMap tailor-config changes. */
export const CONFIG_CHECKSUM = 'checksum/config';
/** Kustomize's name of the generated ConfigMap: tailor-config-<10 characters of hash>. */
const HASHED_CONFIG = /^tailor-config-[a-z0-9]{10}$/;

/** `Kind namespace/name` (or `Kind name` for cluster-scoped objects). */
export function objectKey(o: Manifest): string {
  return o.metadata.namespace ? `${o.kind} ${o.metadata.namespace}/${o.metadata.name}` : `${o.kind} ${o.metadata.name}`;
}

type Json = Record<string, unknown>;
const podTemplate = (o: Manifest): Json | undefined => (o['spec'] as Json | undefined)?.['template'] as Json | undefined;

/** A copy of a chart-rendered object without Helm's labels and the config checksum. */
export function withoutHelmAdditions(o: Manifest): Manifest {
  const copy = structuredClone(o);
  const labels = copy.metadata.labels;
  if (labels) {
    for (const l of HELM_LABELS) delete labels[l];
    if (Object.keys(labels).length === 0) delete copy.metadata.labels;
  }
  const meta = podTemplate(copy)?.['metadata'] as { annotations?: Record<string, string> } | undefined;
  if (meta?.annotations) {
    delete meta.annotations[CONFIG_CHECKSUM];
    if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  }
  return copy;
}

/** A copy of a kustomize-rendered object with the generated ConfigMap's hash suffix taken off (its name and where pods name it). */
export function withoutConfigHash(o: Manifest): Manifest {
  const copy = structuredClone(o);
  if (copy.kind === 'ConfigMap' && HASHED_CONFIG.test(copy.metadata.name)) copy.metadata.name = 'tailor-config';
  const spec = podTemplate(copy)?.['spec'] as { containers?: Array<{ envFrom?: Array<{ configMapRef?: { name: string } }> }> } | undefined;
  for (const c of spec?.containers ?? []) {
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef && HASHED_CONFIG.test(from.configMapRef.name)) from.configMapRef.name = 'tailor-config';
    }
  }
  return copy;
}

/** Where two values first differ, as `path: a ≠ b` lines (at most `limit`). */
export function differences(a: unknown, b: unknown, path = '', limit = 10): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${path}: ${a.length} items ≠ ${b.length} items: ${show(a)} ≠ ${show(b)}`];
    return a.flatMap((x, i) => differences(x, b[i], `${path}[${i}]`, limit)).slice(0, limit);
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differences((a as Json)[k], (b as Json)[k], path ? `${path}.${k}` : k, limit)).slice(0, limit);
  }
  return [`${path}: ${show(a)} ≠ ${show(b)}`];
}

/**
 * Compares the chart's objects with kustomize's, after the documented normalization: the keys only
 * one side has, and for each shared key the fields that differ. Empty when they match.
 */
export function compareRenders(chart: readonly Manifest[], kustomize: readonly Manifest[]): string[] {
  const index = (objects: readonly Manifest[], normalize: (o: Manifest) => Manifest, side: string) => {
    const map = new Map<string, Manifest>();
    for (const o of objects) {
      const n = normalize(o);
      const key = objectKey(n);
      if (map.has(key)) throw new Error(`${side} renders ${key} twice`);
      map.set(key, n);
    }
    return map;
  };
  const ours = index(chart, withoutHelmAdditions, 'the chart');
  const theirs = index(kustomize, withoutConfigHash, 'kustomize');
  const problems: string[] = [];
  for (const key of theirs.keys()) if (!ours.has(key)) problems.push(`${key}: only in kustomize's render`);
  for (const key of ours.keys()) if (!theirs.has(key)) problems.push(`${key}: only in the chart's render`);
  for (const [key, o] of ours) {
    const k = theirs.get(key);
    if (k) problems.push(...differences(o, k).map((d) => `${key}: ${d} (chart ≠ kustomize)`));
  }
  return problems;
}

/** The outcome of one helm run. */
export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm (the cached binary `helm`) with `args`; never throws on a non-zero exit. */
export function runHelm(helm: string, args: string[]): Promise<HelmResult> {
  return new Promise((resolve) => {
    execFile(
      helm,
      args,
      {
        timeout: 120_000,
        maxBuffer: 32 * 1024 * 1024,
        env: {
          ...process.env,
          HELM_CACHE_HOME: process.env['HELM_CACHE_HOME'] ?? '/tmp/tailor-helm-cache',
          HELM_CONFIG_HOME: process.env['HELM_CONFIG_HOME'] ?? '/tmp/tailor-helm-config',
          HELM_DATA_HOME: process.env['HELM_DATA_HOME'] ?? '/tmp/tailor-helm-data',
        },
      },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** `helm template <release> charts/tailor --namespace <ns> --include-crds` with `args` added; the objects. */
export async function helmTemplate(helm: string, chartDir: string, args: string[] = [], namespace = 'tailor-system', release = 'tailor'): Promise<Manifest[]> {
  const result = await runHelm(helm, ['template', release, chartDir, '--namespace', namespace, '--include-crds', ...args]);
  if (result.code !== 0) throw new Error(`helm template ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return parseManifests(result.stdout);
}
