/**
 * `tailor validate`'s runtime check: in a YAML/JSON text holding VPAs and the workloads they target
 * (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, Pod), the containers whose memory
 * resizePolicy does not fit their runtime (runtime-fit.ts, with the VPA's `tailor.dev/runtime`
 * override), and a `tailor.dev/runtime` value that cannot be read. One line each, e.g.
 * `VerticalPodAutoscaler/api -> Deployment/api: container app runs jvm (...), which sizes ...`.
 * Pure; a text that does not parse gives nothing (the VPA check reports it).
 */
import type { V1Container } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { runtimeOverridesOf } from './runtime-annotation.ts';
import { runtimeFitWarnings } from './runtime-fit.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);

function flatten(value: unknown, out: Obj[]): void {
  if (!isObj(value)) return;
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) for (const item of value.items) flatten(item, out);
  else out.push(value);
}

/** The pod containers of a workload object. */
function containersOf(o: Obj): V1Container[] {
  const spec =
    o.kind === 'Pod' ? at(o, 'spec') : o.kind === 'CronJob' ? at(o, 'spec', 'jobTemplate', 'spec', 'template', 'spec') : at(o, 'spec', 'template', 'spec');
  const list = at(spec, 'containers');
  return Array.isArray(list) ? (list.filter((c) => isObj(c) && typeof c.name === 'string') as unknown as V1Container[]) : [];
}

/** The warnings for the text. */
export function runtimeFitInText(text: string): string[] {
  const objects: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) return [];
    flatten(doc.toJS() as unknown, objects);
  }
  const ns = (o: unknown) => (typeof at(o, 'metadata', 'namespace') === 'string' ? (at(o, 'metadata', 'namespace') as string) : 'default');
  const out: string[] = [];
  for (const vpa of objects.filter((o) => o.kind === 'VerticalPodAutoscaler')) {
    const name = `VerticalPodAutoscaler/${String(at(vpa, 'metadata', 'name') ?? '')}`;
    const parsed = runtimeOverridesOf(at(vpa, 'metadata', 'annotations') as Record<string, string> | undefined);
    // A bad value is an error, reported with every other tailor.dev/ annotation (annotations/).
    const kind = at(vpa, 'spec', 'targetRef', 'kind');
    const target = objects.find((o) => o.kind === kind && at(o, 'metadata', 'name') === at(vpa, 'spec', 'targetRef', 'name') && ns(o) === ns(vpa));
    if (!target) continue;
    for (const w of runtimeFitWarnings(containersOf(target), parsed.ok ? parsed.overrides : undefined))
      out.push(`${name} -> ${String(kind)}/${String(at(target, 'metadata', 'name'))}: ${w.message}`);
  }
  return out;
}
