/**
 * The webhook's metrics on a prom-client registry:
 * - `tailor_admission_reviews_total{webhook, outcome}`: webhook `mutate-pods` with the pod outcomes
 *   (patched, no-controller, no-vpa, invalid-vpa, mode-off, no-recommendation, unchanged,
 *   not-ready, error) or `validate-vpa` with allowed / denied / error;
 * - `tailor_admission_review_duration_seconds{webhook}`: time from the request's last byte to the
 *   response (buckets from 1 ms: answers come from memory and must stay far below the timeout);
 * - `tailor_admission_certificate_reloads_total{outcome}`: serving certificates loaded (ok) or
 *   refused (error) after the files changed;
 * - `tailor_admission_startup_boosts_total`: pods admitted with a start-up CPU boost (starts at 0).
 *
 * Every review series starts at 0 (each webhook with each outcome), so `increase()` sees the first
 * review too (a series born at 1 shows no increase in Prometheus).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { PodOutcome } from './pod-admission.ts';
import type { VpaOutcome } from './vpa-admission.ts';

const POD_OUTCOMES = [
  'patched',
  'no-controller',
  'no-vpa',
  'invalid-vpa',
  'mode-off',
  'no-recommendation',
  'unchanged',
] as const satisfies readonly PodOutcome[];
const VPA_OUTCOMES = ['allowed', 'denied'] as const satisfies readonly VpaOutcome[];

export type WebhookName = 'mutate-pods' | 'validate-vpa';

export class AdmissionMetrics {
  readonly reviews: Counter<'webhook' | 'outcome'>;
  readonly duration: Histogram<'webhook'>;
  readonly certificateReloads: Counter<'outcome'>;
  readonly startupBoosts: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.reviews = new Counter({
      name: 'tailor_admission_reviews_total',
      help: 'Admission reviews answered, by webhook and outcome.',
      labelNames: ['webhook', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'tailor_admission_review_duration_seconds',
      help: 'Time to answer an admission review.',
      labelNames: ['webhook'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    for (const outcome of [...POD_OUTCOMES, 'not-ready', 'error']) this.reviews.inc({ webhook: 'mutate-pods', outcome }, 0);
    for (const outcome of [...VPA_OUTCOMES, 'error']) this.reviews.inc({ webhook: 'validate-vpa', outcome }, 0);
    for (const webhook of ['mutate-pods', 'validate-vpa'] satisfies WebhookName[]) this.duration.zero({ webhook });
    this.startupBoosts = new Counter({
      name: 'tailor_admission_startup_boosts_total',
      help: 'Pods admitted with a start-up CPU boost (startupBoost or tailor.dev/startup-cpu-boost on their VPA).',
      registers,
    });
    this.certificateReloads = new Counter({
      name: 'tailor_admission_certificate_reloads_total',
      help: 'Serving certificate reloads after the files changed, by outcome (ok, error).',
      labelNames: ['outcome'],
      registers,
    });
  }

  /** Counts one answered review and its duration (seconds). */
  observe(webhook: WebhookName, outcome: string, seconds: number): void {
    this.reviews.inc({ webhook, outcome });
    this.duration.observe({ webhook }, seconds);
  }
}
