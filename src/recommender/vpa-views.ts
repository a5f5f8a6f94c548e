/**
 * Each cycle's view of the handled VPAs: a malformed one (InvalidSpec, its recommendation kept),
 * one that does not control its workload (MultipleVPAs: of the VPAs on one workload only the
 * oldest is used, decision 0277), one whose target cannot be read (after a failure, read again only
 * after a back-off, target-backoff.ts), or one with its target's selector and the pods it matches
 * (Succeeded and Failed pods left out).
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { formatFieldErrors } from '../api/field-errors.ts';
import { validateVpa, type VpaValidation } from '../api/validate-vpa.ts';
import { controllingVpas, targetOf, workloadKey } from '../api/controlling-vpa.ts';
import type { PodResourcePolicy, VerticalPodAutoscaler } from '../api/vpa.ts';
import { classificationOf } from '../kube/errors.ts';
import type { Logger } from '../observability/logger.ts';
import { RepeatedWarnings } from '../observability/repeated-warnings.ts';
import { SelectorParseError, selectorMatches, type LabelSelector } from './label-selector.ts';
import type { InitContainersSpec } from '../policy/init-containers.ts';
import type { PodLike } from './pod-oom-kills.ts';
import type { RecommenderKube } from './recommender-kube.ts';
import { TargetBackoff, targetKey } from './target-backoff.ts';
import { TargetSelectorError } from './target-selector.ts';
import type { VpaProblem } from './vpa-status-decision.ts';

/** A pod as the recommender reads it from the watch. */
export type Pod = PodLike & InitContainersSpec & { metadata: { name: string; namespace: string }; status?: PodLike['status'] & { phase?: string } };

/** One cycle's view of a handled VPA. */
export interface VpaView {
  id: string;
  vpa: VerticalPodAutoscaler;
  /** The validated spec's resource policy of a VPA whose target resolved (its per-VPA memory settings). */
  resourcePolicy?: PodResourcePolicy;
  problem?: VpaProblem;
  selector?: LabelSelector;
  pods: Pod[];
}

/** `namespace/name` of a VPA. */
export const vpaId = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

/** Why a VPA is not used: another one controls its workload (the older one, or at the same second the first name). */
function notControlling(vpa: VerticalPodAutoscaler, owner: VerticalPodAutoscaler): string {
  const { kind, name } = vpa.spec.targetRef;
  const which =
    owner.metadata.creationTimestamp === vpa.metadata.creationTimestamp
      ? `VPA ${owner.metadata.name} (created in the same second; the first name wins)`
      : `the older VPA ${owner.metadata.name}`;
  return `${kind}/${name} is already handled by ${which}`;
}

/** Resolves the handled VPAs to their views; keeps the targets' back-off and the malformed VPAs' warnings between cycles. */
export class VpaViews {
  /** VPAs whose target failed to resolve, read again only after a back-off. */
  private readonly targetBackoff = new TargetBackoff();
  /** Warnings that would come every cycle (a malformed VPA): once per cause, then rate-limited. */
  private readonly repeated: RepeatedWarnings;

  constructor(
    private readonly kube: RecommenderKube,
    private readonly log: Logger,
    /** Whether this recommender handles the VPA (namespace selection, `spec.recommenders`). */
    private readonly handles: (vpa: VerticalPodAutoscaler) => boolean,
  ) {
    this.repeated = new RepeatedWarnings(log);
  }

  /** Each handled VPA of `vpas` with its problem or its selector and its pods among `pods(namespace)`. */
  async resolve(vpas: readonly VerticalPodAutoscaler[], pods: (namespace: string | undefined) => readonly KubernetesObject[], now: number): Promise<VpaView[]> {
    const views: VpaView[] = [];
    const present = new Set<string>();
    const handled: { id: string; raw: VerticalPodAutoscaler; validation: VpaValidation }[] = [];
    const invalid = new Set<string>();
    for (const raw of vpas) {
      if (!this.handles(raw)) continue;
      const id = vpaId(raw.metadata.namespace, raw.metadata.name);
      present.add(id);
      handled.push({ id, raw, validation: validateVpa(raw) });
    }
    // One VPA per workload, among the valid ones, by the rule the updater and the webhook follow
    // (decision 0277); the others are neither resolved nor written.
    const owners = controllingVpas(handled.flatMap((h) => (h.validation.ok ? [h.raw] : [])));
    for (const { id, raw, validation } of handled) {
      if (!validation.ok) {
        const message = formatFieldErrors(validation.errors);
        views.push({ id, vpa: raw, problem: { reason: 'InvalidSpec', message }, pods: [] });
        invalid.add(`invalid ${id}: ${message}`);
        this.repeated.say(
          `invalid ${id}: ${message}`,
          now,
          { vpa: id, errors: validation.errors },
          `VPA ${id} is malformed; its recommendation is kept, not renewed: ${message}`,
        );
        continue;
      }
      const vpa = validation.vpa;
      const owner = owners.get(workloadKey(targetOf(raw)!));
      if (owner !== undefined && owner !== raw) {
        views.push({ id, vpa: raw, problem: { reason: 'MultipleVPAs', message: notControlling(raw, owner) }, pods: [] });
        continue;
      }
      const key = targetKey(vpa);
      const held = this.targetBackoff.held(id, key, now);
      if (held) {
        views.push({ id, vpa: raw, problem: held.problem, pods: [] });
        continue;
      }
      try {
        const selector = await this.kube.targetSelector(vpa.metadata.namespace ?? '', vpa.spec.targetRef);
        this.targetBackoff.succeeded(id);
        const matched = (pods(vpa.metadata.namespace) as unknown as Pod[]).filter(
          (p) => selectorMatches(selector, p.metadata.labels) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
        );
        views.push({ id, vpa: raw, selector, pods: matched, ...(vpa.spec.resourcePolicy ? { resourcePolicy: vpa.spec.resourcePolicy } : {}) });
      } catch (err) {
        const unsupported = err instanceof TargetSelectorError || err instanceof SelectorParseError;
        const reason = unsupported ? 'TargetUnsupported' : classificationOf(err).kind === 'notFound' ? 'TargetNotFound' : 'TargetUnreadable';
        const message = err instanceof Error ? err.message : String(err);
        const problem = { reason, message };
        const before = this.targetBackoff.lastFailure(id, key);
        const failure = this.targetBackoff.failed(id, key, problem, now);
        views.push({ id, vpa: raw, problem, pods: [] });
        const retryInS = Math.round((failure.retryAt - now) / 1000);
        // Said once per problem; the reads that fail the same way again are debug lines.
        if (before?.problem.message === message) this.log.debug({ vpa: id, failures: failure.failures, retryInS }, 'VPA target still cannot be resolved');
        else this.log.warn({ err, vpa: id, retryInS }, 'VPA target cannot be resolved; reading it again after a back-off');
      }
    }
    this.targetBackoff.retain(present);
    // A VPA valid again (or gone) is said again at once if it breaks again.
    this.repeated.retain((cause) => invalid.has(cause));
    return views;
  }
}
