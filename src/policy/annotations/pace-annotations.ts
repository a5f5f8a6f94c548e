/**
 * Per-workload pace: overrides of the updater's global step limits, cooldown and canary for the
 * pods of one VPA.
 * - `tailor.dev/max-increase: "50%"`: one change raises a value by at most 50% (factor 1.5), even
 *   below the lowerBound (without it, a raise reaches the lowerBound in one change);
 * - `tailor.dev/max-decrease: "25%"`: one change lowers a value by at most 25% (factor 0.75);
 * - `tailor.dev/cooldown: "5m"`: at least 5 minutes between two changes of the same pod;
 * - `tailor.dev/canary-share: "20%"`: 20% of the live pods (at least one) are changed first, and
 *   the rest follow once that many have settled; `0%` changes all pods without canaries.
 * Step limits bound in-place resizes; an evicted pod gets the recommendation from the webhook.
 */
import type { UpdaterOptions } from '../update-thresholds.ts';
import { readAnnotation, type AnnotationKey, type AnnotationProblem, type Annotations } from './annotation-key.ts';
import { parseDurationValue, parsePercentage } from './annotation-values.ts';

export const MAX_INCREASE_ANNOTATION: AnnotationKey<number> = {
  key: 'tailor.dev/max-increase',
  format: 'a percentage above 0%',
  default: 'the global step limit (100%: at most double; a raise below the lowerBound reaches it at once)',
  example: '50%',
  description:
    'How much one change may raise a request or limit; a hard cap, kept even below the lowerBound (by default a raise reaches the lowerBound in one change).',
  parse: (t) => parsePercentage(t, 0, 100, { minExclusive: true }),
};

export const MAX_DECREASE_ANNOTATION: AnnotationKey<number> = {
  key: 'tailor.dev/max-decrease',
  format: 'a percentage above 0% and below 100%',
  default: 'the global step limit (50%: at least half)',
  example: '25%',
  description: 'How much one change may lower a request or limit.',
  parse: (t) => parsePercentage(t, 0, 1, { minExclusive: true, maxExclusive: true }),
};

export const COOLDOWN_ANNOTATION: AnnotationKey<number> = {
  key: 'tailor.dev/cooldown',
  format: 'a duration (90s, 5m, 1h30m; 0s for none; at most 3650d)',
  default: 'the global cooldown (15 min)',
  example: '5m',
  description: 'The least time between two changes of the same pod (OOM kills and memory pressure do not wait).',
  parse: parseDurationValue,
};

export const CANARY_SHARE_ANNOTATION: AnnotationKey<number> = {
  key: 'tailor.dev/canary-share',
  format: 'a percentage from 0% to 100%',
  default: 'the global canary (one pod first)',
  example: '20%',
  description: 'The share of live pods (rounded up, at least one) changed first; the rest follow once that many have settled. 0% = no canary.',
  parse: (t) => parsePercentage(t, 0, 1),
};

/** The pace keys, in the order the docs list them. */
export const PACE_ANNOTATIONS = [MAX_INCREASE_ANNOTATION, MAX_DECREASE_ANNOTATION, COOLDOWN_ANNOTATION, CANARY_SHARE_ANNOTATION] as const;

/** What a VPA's annotations override; absent fields keep the global options. */
export interface PaceOverrides {
  maxStepUpFactor?: number;
  maxStepDownFactor?: number;
  podCooldownMs?: number;
  /** Share of live pods changed first (0 = no canary). */
  canaryShare?: number;
}

/** The overrides a VPA's annotations set; bad values add problems. */
export function readPace(annotations: Annotations, problems: AnnotationProblem[]): PaceOverrides {
  const out: PaceOverrides = {};
  const up = readAnnotation(annotations, MAX_INCREASE_ANNOTATION, problems);
  if (up !== undefined) out.maxStepUpFactor = 1 + up;
  const down = readAnnotation(annotations, MAX_DECREASE_ANNOTATION, problems);
  if (down !== undefined) out.maxStepDownFactor = 1 - down;
  const cooldown = readAnnotation(annotations, COOLDOWN_ANNOTATION, problems);
  if (cooldown !== undefined) out.podCooldownMs = cooldown;
  const canary = readAnnotation(annotations, CANARY_SHARE_ANNOTATION, problems);
  if (canary !== undefined) out.canaryShare = canary;
  return out;
}

/** The global options with a workload's step limits and cooldown in place. */
export function withPace(options: UpdaterOptions, pace: PaceOverrides): UpdaterOptions {
  return {
    ...options,
    ...(pace.maxStepUpFactor !== undefined ? { maxStepUpFactor: pace.maxStepUpFactor } : {}),
    ...(pace.maxStepDownFactor !== undefined ? { maxStepDownFactor: pace.maxStepDownFactor } : {}),
    ...(pace.podCooldownMs !== undefined ? { podCooldownMs: pace.podCooldownMs } : {}),
  };
}

/**
 * How many pods of a workload with `live` pods go first as canaries: 0 for none. Without an
 * override: one when the global canary is on. Example: 20% of 10 -> 2; 20% of 3 -> 1.
 */
export function canaryCount(live: number, globalCanary: boolean, share: number | undefined): number {
  if (share === undefined) return globalCanary ? 1 : 0;
  if (share === 0) return 0;
  return Math.max(1, Math.ceil(live * share - 1e-9));
}
