/**
 * What became of each hostile VPA (hostile-vpas.ts), from the API server's answer to its create and
 * the object at the end of the run: refused by the API server (its schema, its limits), refused by
 * Tailor's validating webhook, reported on its object (a condition naming the problem), served (a
 * recommendation), or silent (accepted and nothing said: a failure). `annotations` cases must be
 * reported by `AnnotationsInvalid` (their Deployment exists, at 0 replicas, so NoPodsMatched alone
 * would not be about the annotation). Pure.
 */
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { HostileCase } from './hostile-vpas.ts';

/** The API server's answer to one create. */
export interface CreateResult {
  readonly status: number;
  readonly message: string;
}

export type HostileOutcome = 'refused-by-api' | 'refused-by-webhook' | 'reported' | 'served' | 'silent';

export interface JudgedCase {
  readonly name: string;
  readonly kind: HostileCase['kind'];
  readonly what: string;
  readonly outcome: HostileOutcome;
  /** The refusal's message or the condition that reported it (`Type/Reason: message`). */
  readonly detail: string;
  readonly ok: boolean;
}

/** Conditions that report a problem with the VPA (True), besides RecommendationProvided False for a reason other than NoSamples. */
const PROBLEM_CONDITIONS = new Set(['ConfigUnsupported', 'AnnotationsInvalid', 'ConfigIgnored', 'NoPodsMatched']);

const WEBHOOK_DENIED = /admission webhook "[^"]+" denied the request/;

function problemCondition(vpa: VerticalPodAutoscaler | undefined, kind: HostileCase['kind']): string | undefined {
  const conditions = vpa?.status?.conditions ?? [];
  const text = (c: (typeof conditions)[number]) => `${c.type}/${c.reason ?? ''}: ${c.message ?? ''}`;
  if (kind === 'annotations') {
    const c = conditions.find((x) => x.type === 'AnnotationsInvalid' && x.status === 'True');
    return c && text(c);
  }
  const c =
    conditions.find((x) => PROBLEM_CONDITIONS.has(x.type) && x.status === 'True') ??
    conditions.find((x) => x.type === 'RecommendationProvided' && x.status === 'False' && x.reason !== 'NoSamples');
  return c && text(c);
}

/** Each case's outcome; `created` by name (absent: never sent), `vpas` as listed at the end by name. */
export function judgeHostile(
  cases: readonly HostileCase[],
  created: ReadonlyMap<string, CreateResult>,
  vpas: ReadonlyMap<string, VerticalPodAutoscaler>,
): JudgedCase[] {
  return cases.map((c) => {
    const base = { name: c.name, kind: c.kind, what: c.what };
    const answer = created.get(c.name);
    if (!answer) return { ...base, outcome: 'silent', detail: 'never sent', ok: false };
    if (answer.status >= 300) {
      const outcome = WEBHOOK_DENIED.test(answer.message) ? 'refused-by-webhook' : 'refused-by-api';
      return { ...base, outcome, detail: `${answer.status}: ${answer.message}`, ok: c.expect === 'refused-or-reported' };
    }
    const vpa = vpas.get(c.name);
    if (c.expect === 'served') {
      const served = (vpa?.status?.recommendation?.containerRecommendations?.length ?? 0) > 0;
      return { ...base, outcome: served ? 'served' : 'silent', detail: served ? 'a recommendation' : 'no recommendation by the end', ok: served };
    }
    const reported = problemCondition(vpa, c.kind);
    return reported
      ? { ...base, outcome: 'reported', detail: reported, ok: true }
      : { ...base, outcome: 'silent', detail: 'accepted, and no condition names a problem', ok: false };
  });
}

/** One line per outcome and kind, e.g. `wrong-type: 36 refused-by-api, 4 reported`. */
export function hostileSummary(judged: readonly JudgedCase[]): string[] {
  const kinds = [...new Set(judged.map((j) => j.kind))];
  return kinds.map((kind) => {
    const of = judged.filter((j) => j.kind === kind);
    const counts = new Map<HostileOutcome, number>();
    for (const j of of) counts.set(j.outcome, (counts.get(j.outcome) ?? 0) + 1);
    return `${kind} (${of.length}): ${[...counts].map(([o, n]) => `${n} ${o}`).join(', ')}`;
  });
}
