/**
 * Fault injection for HTTP clients: rules matched by verb, resource, subresource and namespace
 * that add latency, answer with an error (500, 429 with Retry-After, 409 Conflict, 410 Gone),
 * or end watches early. Each matching rule fires with its probability, drawn from an injected
 * random source so tests can be deterministic. In-process writers are never affected.
 *
 * Worked example: `{ verbs: ['patch'], resources: ['pods'], subresources: ['resize'], error: 429,
 * rate: 0.5, retryAfterSeconds: 2 }` answers half of the resize patches with 429 and
 * `Retry-After: 2`.
 */
import { ApiError, conflict, expired, internalError, tooManyRequests } from './api-error.ts';

/** One fault rule. Empty or missing match lists match everything. */
export interface FaultRule {
  verbs?: string[];
  /** Plural resource names (`pods`) or store keys (`deployments.apps`). */
  resources?: string[];
  /** Subresources (`resize`, `eviction`, `status`); '' matches the main resource. */
  subresources?: string[];
  namespaces?: string[];
  /** Only requests of these users (e.g. one replica's service account); empty: everyone. */
  users?: string[];
  /** Probability in [0, 1] that the rule fires for a matching request (default 1). */
  rate?: number;
  /** Added latency in ms before the request is served. */
  latencyMs?: number;
  /** Error to answer with. */
  error?: 500 | 429 | 409 | 410;
  /** Retry-After for 429 (default 1). */
  retryAfterSeconds?: number;
  /** For watches: end the stream this many ms after it starts. */
  dropWatchAfterMs?: number;
  /** Stop firing after this many times (default unlimited). */
  times?: number;
}

/** What a request matched. */
export interface FaultDecision {
  latencyMs: number;
  error?: ApiError;
  dropWatchAfterMs?: number;
}

/** What a request is matched on. */
export interface FaultTarget {
  /** Who is asking (absent: matched by rules without `users` only). */
  username?: string;
  verb: string;
  resource: string;
  group: string;
  subresource: string;
  namespace: string;
  name: string;
}

export class FaultInjector {
  private rules: { rule: FaultRule; fired: number }[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  /** Adds a rule; returns a function that removes it. */
  add(rule: FaultRule): () => void {
    const entry = { rule, fired: 0 };
    this.rules.push(entry);
    return () => {
      this.rules = this.rules.filter((e) => e !== entry);
    };
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** The faults for one request: summed latency, the first firing error, the first watch drop. */
  decide(target: FaultTarget): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0 };
    for (const entry of this.rules) {
      const r = entry.rule;
      if (!matches(r, target)) continue;
      if (r.times !== undefined && entry.fired >= r.times) continue;
      if (this.random() >= (r.rate ?? 1)) continue;
      entry.fired += 1;
      decision.latencyMs += r.latencyMs ?? 0;
      if (r.error !== undefined && decision.error === undefined) decision.error = errorFor(r, target);
      if (r.dropWatchAfterMs !== undefined && decision.dropWatchAfterMs === undefined) decision.dropWatchAfterMs = r.dropWatchAfterMs;
    }
    return decision;
  }
}

function matches(rule: FaultRule, t: FaultTarget): boolean {
  const key = t.group === '' ? t.resource : `${t.resource}.${t.group}`;
  if (rule.verbs?.length && !rule.verbs.includes(t.verb)) return false;
  if (rule.resources?.length && !rule.resources.includes(t.resource) && !rule.resources.includes(key)) return false;
  if (rule.subresources?.length && !rule.subresources.includes(t.subresource)) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(t.namespace)) return false;
  if (rule.users?.length && (t.username === undefined || !rule.users.includes(t.username))) return false;
  return true;
}

function errorFor(rule: FaultRule, t: FaultTarget): ApiError {
  switch (rule.error) {
    case 429:
      return tooManyRequests('the server has received too many requests and has asked us to try again later', rule.retryAfterSeconds ?? 1);
    case 409:
      return conflict({ resource: t.resource, group: t.group, name: t.name });
    case 410:
      return expired('too old resource version: injected fault');
    default:
      return internalError('injected fault');
  }
}
