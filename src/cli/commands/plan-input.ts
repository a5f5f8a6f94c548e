/**
 * The objects `tailor plan` reads: every YAML or JSON document of the files named with `-f` (`-`
 * is standard input), `kind: List` items flattened, sorted by kind into what the updater loop reads
 * from its caches. VPAs stay as read: the loop's sequence validates them (src/updater/plan-objects.ts).
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { parseManifestText } from '../../api/manifest-text.ts';
import type { LoopObjects } from '../../updater/plan-objects.ts';
import type { WorkloadObject } from '../../updater/workload-groups.ts';
import { readFailure } from '../file-errors.ts';
import { readInput } from '../read-input.ts';

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job']);

type Json = Record<string, unknown>;

/**
 * Every object in a YAML/JSON text, `kind: List` items flattened. Throws when the text is not a
 * manifest (binary data, prose, a syntax error): garbage is an error, not "0 pod(s)".
 */
export function objectsIn(text: string, label: string): Json[] {
  const parsed = parseManifestText(text);
  if (!parsed.ok) throw new Error(`${label}: ${parsed.error}`);
  const out: Json[] = [];
  const add = (value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const obj = value as Json;
    if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) obj.items.forEach(add);
    else out.push(obj);
  };
  for (const { value } of parsed.documents) add(value);
  return out;
}

/** Sorts objects by kind; other kinds are left out. */
export function objectsByKind(objects: readonly Json[]): LoopObjects {
  const pods: V1Pod[] = [];
  const vpas: Json[] = [];
  const limitRanges: V1LimitRange[] = [];
  const hpas: V2HorizontalPodAutoscaler[] = [];
  const workloads: WorkloadObject[] = [];
  for (const obj of objects) {
    const kind = obj.kind;
    if (kind === 'Pod') pods.push(obj as V1Pod);
    else if (kind === 'LimitRange') limitRanges.push(obj as V1LimitRange);
    else if (kind === 'HorizontalPodAutoscaler') hpas.push(obj as V2HorizontalPodAutoscaler);
    else if (typeof kind === 'string' && WORKLOAD_KINDS.has(kind)) workloads.push(obj as WorkloadObject);
    else if (kind === 'VerticalPodAutoscaler') vpas.push(obj);
  }
  return { pods, vpas, limitRanges, hpas, workloads };
}

/** The objects of one file (`-`: standard input); a file that cannot be read is named in words. */
async function readObjects(file: string): Promise<Json[]> {
  let text: string;
  try {
    text = await readInput(file);
  } catch (e) {
    throw readFailure(file, e);
  }
  return objectsIn(text, file);
}

/** The objects of all `files`, in order, sorted by kind; throws at the first file that cannot be read or parsed. */
export async function readPlanObjects(files: readonly string[]): Promise<LoopObjects> {
  const objects: Json[] = [];
  for (const file of files) objects.push(...(await readObjects(file)));
  return objectsByKind(objects);
}
