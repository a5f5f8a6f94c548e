/**
 * Test helpers for the kustomize manifests: render a directory with the kustomize built into
 * kubectl (`kubectl kustomize`), and run kubectl against a kube-sim kubeconfig. Components cannot be
 * rendered from an absolute path, so a combination of them is rendered from a temporary copy of
 * manifests/ with an overlay beside it.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** The repository's manifests/ directory. */
export const MANIFESTS = fileURLToPath(new URL('../../manifests/', import.meta.url));

/** A rendered Kubernetes object (only the fields the tests read are typed). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

/** The outcome of one kubectl run. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl asynchronously (a kube-sim may live in this process) and collects its output. */
export function kubectl(args: string[], stdin?: string): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** Parses multi-document YAML into objects, skipping empty documents. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

/** `kubectl kustomize <dir>` (relative to manifests/); throws with kubectl's message on failure. */
export async function render(dir: string): Promise<{ text: string; objects: Manifest[] }> {
  const result = await kubectl(['kustomize', join(MANIFESTS, dir)]);
  if (result.code !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${result.stderr}`);
  return { text: result.stdout, objects: parseManifests(result.stdout) };
}

/**
 * Renders an overlay of `resources` and `components` (paths relative to manifests/) from a
 * temporary copy, which is removed afterwards.
 */
export async function renderCombination(resources: string[], components: string[]): Promise<{ text: string; objects: Manifest[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-kustomize-'));
  try {
    await cp(MANIFESTS, join(dir, 'manifests'), { recursive: true });
    await mkdir(join(dir, 'overlay'));
    const rel = (p: string) => `../manifests/${p}`;
    await writeFile(
      join(dir, 'overlay', 'kustomization.yaml'),
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${resources.map(rel).join(', ')}]\ncomponents: [${components.map(rel).join(', ')}]\n`,
    );
    const result = await kubectl(['kustomize', join(dir, 'overlay')]);
    if (result.code !== 0) throw new Error(`kubectl kustomize of ${[...resources, ...components].join(' + ')} failed: ${result.stderr}`);
    return { text: result.stdout, objects: parseManifests(result.stdout) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The one object of a kind and name; throws when there is not exactly one. */
export function find(objects: Manifest[], kind: string, name: string): Manifest {
  const hits = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (hits.length !== 1) throw new Error(`expected one ${kind}/${name}, found ${hits.length}`);
  return hits[0] as Manifest;
}

/** `Kind/name` of each object, sorted: a readable summary to compare. */
export function inventory(objects: Manifest[]): string[] {
  return objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
}
