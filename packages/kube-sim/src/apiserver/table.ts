/**
 * Server-side printing for `kubectl get`: when the Accept header asks for `as=Table`, a get or list
 * answers with a meta.k8s.io/v1 Table. Pods, nodes, deployments, namespaces and VPAs get the
 * columns kubectl users know (VPAs: the printer columns of upstream's CRD, PROVIDED and the wide
 * MINREPLICAS and OOMSECONDS included); other kinds get NAME and AGE. A value the object does not
 * have is null (an empty cell in kubectl), as the real server answers for its CRD columns.
 */
import type { ResourceType } from './resource-type.ts';
import type { KubeObject } from './types.ts';

interface Column {
  name: string;
  type: string;
  format?: string;
  priority?: number;
  cell: (obj: KubeObject, now: number) => string | number | null;
}

/** True when the Accept header asks for a Table. */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').includes('as=Table');
}

/** kubectl's short age: 45s, 12m, 3h, 2d (largest unit, rounded down). */
export function shortAge(fromIso: string | undefined, now: number): string {
  if (!fromIso) return '<unknown>';
  const s = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

const nameColumn: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name ?? '' };
const ageColumn: Column = { name: 'Age', type: 'string', cell: (o, now) => shortAge(o.metadata.creationTimestamp, now) };

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function podColumns(): Column[] {
  const statuses = (o: KubeObject): Any[] => ((o.status as Any | undefined)?.['containerStatuses'] as Any[] | undefined) ?? [];
  return [
    nameColumn,
    {
      name: 'Ready',
      type: 'string',
      cell: (o) => `${statuses(o).filter((s) => s['ready']).length}/${((o.spec as Any | undefined)?.['containers'] as unknown[] | undefined)?.length ?? 0}`,
    },
    {
      name: 'Status',
      type: 'string',
      cell: (o) => (o.metadata.deletionTimestamp ? 'Terminating' : String((o.status as Any | undefined)?.['phase'] ?? 'Pending')),
    },
    { name: 'Restarts', type: 'integer', cell: (o) => statuses(o).reduce((n, s) => n + Number(s['restartCount'] ?? 0), 0) },
    ageColumn,
    { name: 'IP', type: 'string', priority: 1, cell: (o) => String((o.status as Any | undefined)?.['podIP'] ?? '<none>') },
    { name: 'Node', type: 'string', priority: 1, cell: (o) => String((o.spec as Any | undefined)?.['nodeName'] ?? '<none>') },
  ];
}

function columnsFor(type: ResourceType): Column[] {
  if (type.group === '' && type.kind === 'Pod') return podColumns();
  if (type.group === '' && type.kind === 'Node') {
    return [
      nameColumn,
      {
        name: 'Status',
        type: 'string',
        cell: (o) =>
          (((o.status as Any | undefined)?.['conditions'] as Any[] | undefined) ?? []).some((c) => c['type'] === 'Ready' && c['status'] === 'True')
            ? 'Ready'
            : 'NotReady',
      },
      ageColumn,
    ];
  }
  if (type.group === '' && type.kind === 'Service') {
    const spec = (o: KubeObject): Any => (o.spec ?? {}) as Any;
    return [
      nameColumn,
      { name: 'Type', type: 'string', cell: (o) => String(spec(o)['type'] ?? 'ClusterIP') },
      { name: 'Cluster-IP', type: 'string', cell: (o) => String(spec(o)['clusterIP'] ?? '<none>') },
      { name: 'External-IP', type: 'string', cell: () => '<none>' },
      {
        name: 'Port(s)',
        type: 'string',
        cell: (o) => ((spec(o)['ports'] as Any[] | undefined) ?? []).map((p) => `${String(p['port'])}/${String(p['protocol'] ?? 'TCP')}`).join(',') || '<none>',
      },
      ageColumn,
    ];
  }
  if (type.group === '' && type.kind === 'Namespace') {
    return [nameColumn, { name: 'Status', type: 'string', cell: (o) => String((o.status as Any | undefined)?.['phase'] ?? 'Active') }, ageColumn];
  }
  if (type.group === 'apps' && (type.kind === 'Deployment' || type.kind === 'StatefulSet')) {
    return [
      nameColumn,
      {
        name: 'Ready',
        type: 'string',
        cell: (o) => `${Number((o.status as Any | undefined)?.['readyReplicas'] ?? 0)}/${Number((o.spec as Any | undefined)?.['replicas'] ?? 0)}`,
      },
      ageColumn,
    ];
  }
  if (type.kind === 'VerticalPodAutoscaler') {
    const rec = (o: KubeObject, r: string): string => {
      const recs = (((o.status as Any | undefined)?.['recommendation'] as Any | undefined)?.['containerRecommendations'] as Any[] | undefined) ?? [];
      return String(recs[0]?.['target']?.[r] ?? '');
    };
    return [
      nameColumn,
      { name: 'Mode', type: 'string', cell: (o) => String(((o.spec as Any | undefined)?.['updatePolicy'] as Any | undefined)?.['updateMode'] ?? 'Auto') },
      { name: 'CPU', type: 'string', cell: (o) => rec(o, 'cpu') },
      { name: 'Mem', type: 'string', cell: (o) => rec(o, 'memory') },
      {
        name: 'Provided',
        type: 'string',
        cell: (o) => {
          const conditions = ((o.status as Any | undefined)?.['conditions'] as Any[] | undefined) ?? [];
          const provided = conditions.find((c) => c?.['type'] === 'RecommendationProvided');
          return provided === undefined ? null : String(provided['status'] ?? '');
        },
      },
      ageColumn,
      {
        name: 'MinReplicas',
        type: 'integer',
        priority: 1,
        cell: (o) => (((o.spec as Any | undefined)?.['updatePolicy'] as Any | undefined)?.['minReplicas'] as number | undefined) ?? null,
      },
      {
        name: 'OOMSeconds',
        type: 'integer',
        priority: 1,
        cell: (o) => (((o.spec as Any | undefined)?.['updatePolicy'] as Any | undefined)?.['evictAfterOOMSeconds'] as number | undefined) ?? null,
      },
    ];
  }
  return [nameColumn, ageColumn];
}

/** Converts a get or list response body into a Table. */
export function toTable(type: ResourceType, body: unknown, isList: boolean, now: number): Record<string, unknown> {
  const columns = columnsFor(type);
  const items = isList ? ((body as { items: KubeObject[] }).items ?? []) : [body as KubeObject];
  const metadata = {
    resourceVersion: isList ? (body as { metadata: { resourceVersion: string } }).metadata.resourceVersion : (body as KubeObject).metadata.resourceVersion,
  };
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.name, priority: c.priority ?? 0 })),
    rows: items.map((obj) => ({ cells: columns.map((c) => c.cell(obj, now)), object: obj })),
  };
}
