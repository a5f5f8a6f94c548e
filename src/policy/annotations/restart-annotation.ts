/**
 * `tailor.dev/allow-container-restart: "true" | "false"`: allows (or forbids) in-place resizes that
 * restart a container (resizePolicy `RestartContainer`) for the VPA's pods; without it the global
 * option `allowContainerRestart` decides (read by src/updater/annotations.ts).
 */
import { readAnnotation, type AnnotationKey, type AnnotationProblem, type Annotations } from './annotation-key.ts';
import { parseBooleanValue } from './annotation-values.ts';

export const ALLOW_RESTART_ANNOTATION_KEY: AnnotationKey<boolean> = {
  key: 'tailor.dev/allow-container-restart',
  format: '"true" or "false"',
  default: 'the global option allowContainerRestart (false)',
  example: 'true',
  description: 'Allows in-place resizes that restart a container (resizePolicy RestartContainer).',
  parse: parseBooleanValue,
};

/** The VPA's choice, undefined when it makes none (or a bad one: then a problem is added). */
export function readRestart(annotations: Annotations, problems: AnnotationProblem[]): boolean | undefined {
  return readAnnotation(annotations, ALLOW_RESTART_ANNOTATION_KEY, problems);
}
