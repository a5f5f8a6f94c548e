/**
 * Job (simple): runs `parallelism` pods at a time (default 1) until `completions` (default 1) pods
 * succeeded; then the Job gets the `Complete` condition. Failed pods are replaced up to
 * `backoffLimit` (default 6), after which the Job is `Failed`.
 */
import type { Pod } from '../objects.ts';
import { podFromTemplate } from './pod-from-template.ts';
import { isActive, type ReconcileResult, type Workload } from './workload-types.ts';

export function reconcileJob(job: Workload, owned: readonly Pod[], nowIso: string): ReconcileResult {
  const completions = job.spec.completions ?? 1;
  const parallelism = job.spec.parallelism ?? 1;
  const backoffLimit = job.spec.backoffLimit ?? 6;
  const succeeded = owned.filter((p) => p.status?.phase === 'Succeeded').length;
  const failed = owned.filter((p) => p.status?.phase === 'Failed').length;
  const active = owned.filter(isActive).length;
  const done = succeeded >= completions;
  const gaveUp = failed > backoffLimit;
  const create: Pod[] = [];
  if (!done && !gaveUp) {
    const want = Math.min(parallelism, completions - succeeded);
    for (let i = active; i < want; i++) {
      create.push(
        podFromTemplate(
          { ...job, kind: 'Job', apiVersion: 'batch/v1' },
          {
            generateName: `${job.metadata.name}-`,
            extraLabels: { 'batch.kubernetes.io/job-name': job.metadata.name ?? '', 'job-name': job.metadata.name ?? '' },
          },
        ),
      );
    }
  }
  const conditions = done
    ? [{ type: 'Complete', status: 'True', lastTransitionTime: nowIso }]
    : gaveUp
      ? [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: nowIso }]
      : [];
  return {
    create,
    delete: [],
    status: { active, succeeded, failed, ...(conditions.length ? { conditions } : {}), ...(done ? { completionTime: nowIso } : {}) },
  };
}
