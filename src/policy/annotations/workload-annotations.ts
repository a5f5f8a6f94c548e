/**
 * The registry of per-workload annotations: every `tailor.dev/` key a VPA may carry, read in one
 * pass into {@link WorkloadSettings}, with every problem found (a bad value, or a `tailor.dev/`
 * key nobody reads, usually a typo). A family of keys lives in its own file and adds itself here:
 * its keys to {@link WORKLOAD_ANNOTATION_KEYS} and its reader to {@link readWorkloadAnnotations}.
 * Pure.
 */
import type { DisruptionWindows } from '../disruption-window.ts';
import type { AnnotationKey, AnnotationProblem, Annotations } from './annotation-key.ts';
import { BOOST_ANNOTATIONS, readBoost, type StartupBoost } from './boost-annotations.ts';
import { PACE_ANNOTATIONS, readPace, type PaceOverrides } from './pace-annotations.ts';
import { ALLOW_RESTART_ANNOTATION_KEY, readRestart } from './restart-annotation.ts';
import { readWindows, WINDOW_ANNOTATIONS } from './window-annotations.ts';
import { readRuntime, RUNTIME_ANNOTATION_KEY } from './runtime-annotation-key.ts';
import type { RuntimeOverrides } from '../runtime-annotation.ts';

/** The prefix of Tailor's annotations. */
export const TAILOR_PREFIX = 'tailor.dev/';

/** Every key a VPA may carry, in the order the docs list them. */
export const WORKLOAD_ANNOTATION_KEYS: readonly AnnotationKey<unknown>[] = [
  ...PACE_ANNOTATIONS,
  ...WINDOW_ANNOTATIONS,
  ALLOW_RESTART_ANNOTATION_KEY,
  ...BOOST_ANNOTATIONS,
  RUNTIME_ANNOTATION_KEY,
];

/** What a VPA's annotations set for its workload. */
export interface WorkloadSettings {
  pace: PaceOverrides;
  windows?: DisruptionWindows;
  allowContainerRestart?: boolean;
  startupBoost?: StartupBoost;
  /** `tailor.dev/runtime`: runtime by container name (`*`: the others). */
  runtimes?: RuntimeOverrides;
}

/** The settings, and every problem (empty when all is well). */
export interface WorkloadAnnotations {
  settings: WorkloadSettings;
  problems: AnnotationProblem[];
}

/** Reads a VPA's `tailor.dev/` annotations. Never throws. */
export function readWorkloadAnnotations(annotations: Annotations): WorkloadAnnotations {
  const problems: AnnotationProblem[] = [];
  const known = new Set(WORKLOAD_ANNOTATION_KEYS.map((k) => k.key));
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (key.startsWith(TAILOR_PREFIX) && !known.has(key))
      problems.push({ annotation: key, value: String(value), message: `unknown annotation (known: ${[...known].join(', ')})` });
  }
  const settings: WorkloadSettings = { pace: readPace(annotations, problems) };
  const windows = readWindows(annotations, problems);
  if (windows) settings.windows = windows;
  const restart = readRestart(annotations, problems);
  if (restart !== undefined) settings.allowContainerRestart = restart;
  const boost = readBoost(annotations, problems);
  if (boost) settings.startupBoost = boost;
  const runtimes = readRuntime(annotations, problems);
  if (runtimes) settings.runtimes = runtimes;
  return { settings, problems };
}
