/**
 * The VPA settings the recommender's strategy does not apply, said on the VPA as the condition
 * `ConfigIgnored` (the recommendation is still provided): upstream 1.8's
 * `memoryAggregationIntervalSeconds` / `memoryAggregationIntervalCount` shape the upstream
 * algorithm's memory history (one peak per interval, over interval x count); the tailor strategies
 * keep their own (hourly peaks over `memoryHistoryMs`, 7 days) and have no such interval, so only
 * `--recommender-strategy vpa` applies them. Their OOM bump (`oomBumpUpRatio`, `oomMinBumpUp`) every
 * strategy applies. Pure.
 */
import type { PodResourcePolicy } from '../api/vpa.ts';

/** The recommender's upstream algorithm, which applies every setting. */
const UPSTREAM_STRATEGY = 'vpa';

/** Why some settings are not applied by `strategy`, or undefined when all are. */
export function ignoredSettings(resourcePolicy: PodResourcePolicy | undefined, strategy: string): string | undefined {
  if (strategy === UPSTREAM_STRATEGY) return undefined;
  const ignored: string[] = [];
  for (const p of resourcePolicy?.containerPolicies ?? []) {
    const fields = (['memoryAggregationIntervalSeconds', 'memoryAggregationIntervalCount'] as const).filter((f) => p[f] !== undefined);
    if (fields.length > 0) ignored.push(`${fields.join(' and ')} of container policy ${JSON.stringify(p.containerName)}`);
  }
  if (ignored.length === 0) return undefined;
  return `${ignored.join('; ')} not applied: the ${strategy} strategy keeps its own memory history (hourly peaks over 7 days), not upstream's aggregation intervals; --recommender-strategy vpa applies them`;
}
