/**
 * What an autoscaler did to pods, read from the API server's audit log (JSON lines of
 * `audit.k8s.io/v1` Events, stage ResponseComplete) rather than from its own logs: each in-place
 * resize (PATCH `pods/resize`, or a PATCH of the pod itself on servers before 1.33), each eviction
 * (CREATE `pods/eviction`) and each pod deletion, with who sent it (the user, and for a service
 * account token bound to a pod that pod's name: `authentication.kubernetes.io/pod-name`, so two
 * replicas of one Deployment are told apart), when, and what came back. A resize's values are read
 * from its request (the JSON Patch Tailor sends: `test` of each container's name at its index, `add`
 * of its values; or a merge patch of `spec.containers`), so the policy level must record requests
 * for those (audit-policy.ts).
 */

/** One request that acts on a pod, as the audit log recorded it. */
export interface PodAction {
  readonly kind: 'resize' | 'eviction' | 'delete';
  /** stageTimestamp of the ResponseComplete stage, ms since the epoch. */
  readonly at: number;
  readonly user: string;
  /** The pod the sender's token is bound to, if any. */
  readonly senderPod: string | undefined;
  readonly userAgent: string;
  readonly namespace: string;
  readonly pod: string;
  /** The response's HTTP status code. */
  readonly code: number;
  /** The response status's message when it failed (e.g. the PDB's refusal, a QoS change refused). */
  readonly message: string;
  /** For a resize: each container the request writes, by name, with the values it writes (quantity strings). */
  readonly containers: readonly WrittenContainer[];
}

/** The values one resize request writes for one container. */
export interface WrittenContainer {
  readonly name: string;
  readonly requests: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
}

interface AuditEvent {
  stage?: string;
  verb?: string;
  user?: { username?: string; extra?: Record<string, string[]> };
  userAgent?: string;
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number; message?: string };
  requestObject?: unknown;
  responseObject?: { spec?: { containers?: { name?: string }[] }; message?: string };
  stageTimestamp?: string;
}

const POD_NAME = 'authentication.kubernetes.io/pod-name';

/** The kind of pod action an event is, or undefined for any other request. */
function kindOf(e: AuditEvent): PodAction['kind'] | undefined {
  if (e.objectRef?.resource !== 'pods') return undefined;
  const sub = e.objectRef.subresource ?? '';
  if (e.verb === 'patch' && (sub === 'resize' || sub === '')) return 'resize';
  if (e.verb === 'create' && sub === 'eviction') return 'eviction';
  if (e.verb === 'delete' && sub === '') return 'delete';
  return undefined;
}

/** A container's written values, merged in as the request's operations come. */
type Draft = { name?: string; requests: Record<string, string>; limits: Record<string, string> };

function addValues(draft: Draft, field: 'requests' | 'limits', value: unknown): void {
  if (value && typeof value === 'object') for (const [r, q] of Object.entries(value)) draft[field][r] = String(q);
}

/**
 * The containers a resize request writes. A JSON Patch: `test` ops name the container at an index,
 * `add`/`replace` ops write `/spec/containers/N/resources[/requests|/limits[/<resource>]]`. A merge
 * patch: `spec.containers[].resources`. Names missing from the request come from the response's pod.
 */
export function writtenContainers(request: unknown, responsePod?: AuditEvent['responseObject']): WrittenContainer[] {
  const drafts = new Map<string | number, Draft>();
  const draft = (key: string | number): Draft => {
    let d = drafts.get(key);
    if (!d) drafts.set(key, (d = { requests: {}, limits: {} }));
    return d;
  };
  if (Array.isArray(request)) {
    for (const op of request as { op?: string; path?: string; value?: unknown }[]) {
      const m = /^\/spec\/containers\/(\d+)\/(name|resources)(?:\/(requests|limits)(?:\/([^/]+))?)?$/.exec(op.path ?? '');
      if (!m) continue;
      const d = draft(Number(m[1]));
      if (m[2] === 'name') {
        if (op.op === 'test') d.name = String(op.value);
      } else if (op.op === 'add' || op.op === 'replace') {
        const [field, resource] = [m[3] as 'requests' | 'limits' | undefined, m[4]];
        if (!field) {
          const v = (op.value ?? {}) as { requests?: unknown; limits?: unknown };
          addValues(d, 'requests', v.requests);
          addValues(d, 'limits', v.limits);
        } else if (resource) d[field][resource] = String(op.value);
        else addValues(d, field, op.value);
      }
    }
  } else if (request && typeof request === 'object') {
    const containers =
      (request as { spec?: { containers?: { name?: string; resources?: { requests?: unknown; limits?: unknown } }[] } }).spec?.containers ?? [];
    for (const c of containers) {
      const d = draft(c.name ?? '');
      d.name = c.name;
      addValues(d, 'requests', c.resources?.requests);
      addValues(d, 'limits', c.resources?.limits);
    }
  }
  return [...drafts.entries()].map(([key, d]) => ({
    name: d.name ?? (typeof key === 'number' ? (responsePod?.spec?.containers?.[key]?.name ?? `#${key}`) : key),
    requests: d.requests,
    limits: d.limits,
  }));
}

/** The pod actions of an audit log's text (one JSON Event per line), in time order. Lines that do not parse are counted in `unreadable`. */
export function readPodActions(text: string): { actions: PodAction[]; unreadable: number } {
  const actions: PodAction[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let e: AuditEvent;
    try {
      e = JSON.parse(line) as AuditEvent;
    } catch {
      unreadable += 1;
      continue;
    }
    if (e.stage !== 'ResponseComplete') continue;
    const kind = kindOf(e);
    if (!kind) continue;
    const code = e.responseStatus?.code ?? 0;
    actions.push({
      kind,
      at: Date.parse(e.stageTimestamp ?? ''),
      user: e.user?.username ?? '',
      senderPod: e.user?.extra?.[POD_NAME]?.[0],
      userAgent: e.userAgent ?? '',
      namespace: e.objectRef?.namespace ?? '',
      pod: e.objectRef?.name ?? '',
      code,
      message: e.responseStatus?.message ?? (code >= 400 ? (e.responseObject?.message ?? '') : ''),
      containers: kind === 'resize' ? writtenContainers(e.requestObject, e.responseObject) : [],
    });
  }
  actions.sort((a, b) => a.at - b.at);
  return { actions, unreadable };
}

/** A successful write of a leader-election Lease: who renewed (or took) it, and when. */
export interface LeaseWrite {
  /** stageTimestamp of the ResponseComplete stage, ms since the epoch. */
  readonly at: number;
  /** The pod the writer's token is bound to (else its user name). */
  readonly holder: string;
}

/**
 * The successful creates, updates and patches of the Lease `namespace/name` in an audit log's text,
 * in time order: the leader's renewals (the Metadata level is enough: the writer is the holder).
 */
export function readLeaseWrites(text: string, namespace: string, name: string): LeaseWrite[] {
  const out: LeaseWrite[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"leases"')) continue;
    let e: AuditEvent;
    try {
      e = JSON.parse(line) as AuditEvent;
    } catch {
      continue;
    }
    const o = e.objectRef;
    if (e.stage !== 'ResponseComplete' || o?.resource !== 'leases' || o.namespace !== namespace || o.name !== name) continue;
    if (!['create', 'update', 'patch'].includes(e.verb ?? '') || (e.responseStatus?.code ?? 0) >= 300) continue;
    out.push({ at: Date.parse(e.stageTimestamp ?? ''), holder: e.user?.extra?.[POD_NAME]?.[0] ?? e.user?.username ?? '' });
  }
  return out.sort((a, b) => a.at - b.at);
}
