/**
 * The path of an in-place resize per container, from its `resizePolicy`: a resource whose
 * `restartPolicy` is `RestartContainer` restarts the container when it changes; `NotRequired`
 * (the default, also when the resource is not listed) is applied to the cgroup without a restart.
 */
import type { V1Container } from '@kubernetes/client-node';
import type { ResourceName } from '../model/types.ts';

export type ResizeRestartPolicy = 'NotRequired' | 'RestartContainer';

/** The container's restart policy for `resource`. */
export function resizeRestartPolicy(container: V1Container | undefined, resource: ResourceName): ResizeRestartPolicy {
  const entry = container?.resizePolicy?.find((p) => p.resourceName === resource);
  return entry?.restartPolicy === 'RestartContainer' ? 'RestartContainer' : 'NotRequired';
}
