/**
 * The pod (template) annotation `tailor.dev/sim-usage`: JSON
 * `{"<container>": {"cpu": "<pattern>", "memory": "<pattern>"}}`. Containers or resources left out
 * use the default: CPU steady at half the request (10m without one), memory steady at 60% of the
 * request (32Mi without one).
 */
import { parseUsagePattern, UsagePatternError, type UsagePattern, type UsageResource } from './usage-pattern.ts';
import { readResources } from '../pod-resources.ts';
import type { Container } from '../objects.ts';

export const USAGE_ANNOTATION = 'tailor.dev/sim-usage';

export type ContainerUsage = Record<UsageResource, UsagePattern>;

/** Parses the annotation; errors name the container and resource. */
export function parseUsageAnnotation(json: string): Record<string, Partial<ContainerUsage>> {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new UsagePatternError(`annotation ${USAGE_ANNOTATION} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new UsagePatternError(`annotation ${USAGE_ANNOTATION} must be a JSON object {"<container>": {"cpu": "<pattern>", "memory": "<pattern>"}}`);
  }
  const out: Record<string, Partial<ContainerUsage>> = {};
  for (const [container, spec] of Object.entries(data as Record<string, unknown>)) {
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
      throw new UsagePatternError(
        `annotation ${USAGE_ANNOTATION}: container ${JSON.stringify(container)} must map to {"cpu": "<pattern>", "memory": "<pattern>"}`,
      );
    }
    const entry: Partial<ContainerUsage> = {};
    for (const [resource, pattern] of Object.entries(spec as Record<string, unknown>)) {
      if (resource !== 'cpu' && resource !== 'memory') {
        throw new UsagePatternError(
          `annotation ${USAGE_ANNOTATION}: container ${JSON.stringify(container)} has unknown resource ${JSON.stringify(resource)} (expected cpu or memory)`,
        );
      }
      if (typeof pattern !== 'string') throw new UsagePatternError(`annotation ${USAGE_ANNOTATION}: ${container}.${resource} must be a string pattern`);
      try {
        entry[resource] = parseUsagePattern(pattern, resource);
      } catch (err) {
        throw new UsagePatternError(`annotation ${USAGE_ANNOTATION}: ${container}.${resource}: ${(err as Error).message}`, { cause: err });
      }
    }
    out[container] = entry;
  }
  return out;
}

/** The default usage of a container without a pattern. */
export function defaultUsage(container: Container): ContainerUsage {
  const requests = readResources(container.resources?.requests);
  return {
    cpu: { kind: 'steady', value: requests.cpu > 0 ? requests.cpu * 0.5 : 10, noise: 0.1 },
    memory: { kind: 'steady', value: requests.memory > 0 ? Math.round(requests.memory * 0.6) : 32 * 2 ** 20, noise: 0 },
  };
}

/** The usage of every container of a pod: the annotation's patterns over the defaults. */
export function containerUsages(containers: Container[], annotation: string | undefined): Record<string, ContainerUsage> {
  const parsed = annotation === undefined ? {} : parseUsageAnnotation(annotation);
  const names = containers.map((c) => c.name);
  for (const name of Object.keys(parsed)) {
    if (!names.includes(name)) {
      throw new UsagePatternError(
        `annotation ${USAGE_ANNOTATION} names container ${JSON.stringify(name)}, which the pod does not have (containers: ${names.join(', ')})`,
      );
    }
  }
  return Object.fromEntries(containers.map((c) => [c.name, { ...defaultUsage(c), ...(parsed[c.name] ?? {}) }]));
}
