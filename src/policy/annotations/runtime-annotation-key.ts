/**
 * `tailor.dev/runtime` in the per-workload registry: the runtime of the VPA's containers when
 * detection guesses wrong (parsed by ../runtime-annotation.ts; used by runtime-aware memory,
 * docs/runtime-aware-memory.md). A bad value is reported like every other annotation.
 */
import { parseRuntimeAnnotation, RUNTIME_ANNOTATION, type RuntimeOverrides } from '../runtime-annotation.ts';
import { AnnotationValueError, readAnnotation, type AnnotationKey, type AnnotationProblem, type Annotations } from './annotation-key.ts';

export const RUNTIME_ANNOTATION_KEY: AnnotationKey<RuntimeOverrides> = {
  key: RUNTIME_ANNOTATION,
  format: 'a runtime (jvm, postgresql, go, ...) or container=runtime pairs separated by ","',
  default: 'detected from image, command, args and env',
  example: 'app=jvm,sidecar=go',
  description: 'Names the runtime of the containers for runtime-aware memory resizing.',
  parse(text) {
    const parsed = parseRuntimeAnnotation(text);
    // The parser's message starts with the key; the problem names the key already.
    if (!parsed.ok) throw new AnnotationValueError(parsed.message.replace(`${RUNTIME_ANNOTATION}: `, ''));
    return parsed.overrides;
  },
};

/** The VPA's runtime overrides, undefined when it sets none (or a bad value: then a problem is added). */
export function readRuntime(annotations: Annotations, problems: AnnotationProblem[]): RuntimeOverrides | undefined {
  return readAnnotation(annotations, RUNTIME_ANNOTATION_KEY, problems);
}
