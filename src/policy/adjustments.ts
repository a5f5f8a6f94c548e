/**
 * Why the policy changed (or refused to change) a value. Each adjustment has a stable `code` for
 * metrics and tests and a `message` for people: the updater logs it and puts it in events, the
 * admission webhook writes it into the pod's annotations.
 */
import type { ResourceName } from 'kube-basics/resources';

/** The kinds of adjustment the policy makes. */
export type AdjustmentCode =
  | 'BestEffortLeftAlone'
  | 'PodLevelResourcesLeftAlone'
  | 'UnreadableResources'
  | 'NoRecommendation'
  | 'ContainerModeOff'
  | 'InvalidRecommendation'
  | 'RaisedToMinimum'
  | 'RaisedToMinAllowed'
  | 'CappedToMaxAllowed'
  | 'RaisedToLimitRangeMin'
  | 'CappedToLimitRangeMax'
  | 'LimitScaled'
  | 'LimitKeptEqualToRequest'
  | 'LimitNotScaled'
  | 'LimitCappedToLimitRangeMax'
  | 'LimitCappedToLimitRangeRatio'
  | 'RequestCappedToLimit'
  | 'RequestRaisedForLimitRangeRatio'
  | 'GuaranteedKept'
  | 'BurstableKept'
  | 'QosWouldChange'
  | 'CappedToPodLimitRange'
  | 'RaisedToPodLimitRange'
  | 'RaisedToContainerValues'
  | 'MemoryLimitKept'
  | 'ValueTooLarge';

/** One adjustment, for one container and resource where it applies. */
export interface Adjustment {
  code: AdjustmentCode;
  container?: string;
  resource?: ResourceName;
  message: string;
}

/**
 * Formats a value of a resource for messages: cpu `250m`; memory `512Mi` / `1Gi` when whole, else
 * MiB to one decimal marked as rounded (507070005 bytes -> `~483.6Mi`), plain bytes below 1 MiB.
 */
export function describeAmount(resource: ResourceName, value: number): string {
  if (resource === 'cpu') return `${value}m`;
  const MiB = 1024 * 1024;
  if (value % (1024 * MiB) === 0) return `${value / (1024 * MiB)}Gi`;
  if (value % MiB === 0) return `${value / MiB}Mi`;
  if (!Number.isFinite(value) || Math.abs(value) < MiB) return `${value}`;
  return `~${(value / MiB).toFixed(1)}Mi`;
}
