/**
 * One per-workload annotation (under `tailor.dev/` on the VPA): its key, the format people write,
 * what applies without it, an example, and the parser. A parser throws {@link AnnotationValueError}
 * with what is wrong; {@link readAnnotation} turns that into an {@link AnnotationProblem} naming
 * the annotation, so a bad value is reported (VPA condition, `tailor validate`), never a crash and
 * never a silent default. Pure.
 */

/** A bad value: the message says what is wrong and what would be right. */
export class AnnotationValueError extends Error {
  override readonly name = 'AnnotationValueError';
}

/** What is wrong with one annotation of a VPA. */
export interface AnnotationProblem {
  annotation: string;
  value: string;
  message: string;
}

/** The description and parser of one annotation key. */
export interface AnnotationKey<T> {
  key: string;
  /** The format, for people: `a percentage, e.g. 50%`. */
  format: string;
  /** What applies when the annotation is absent. */
  default: string;
  example: string;
  /** One sentence: what it does. */
  description: string;
  parse(text: string): T;
}

/** Annotations as read from an object's metadata. */
export type Annotations = Readonly<Record<string, string>> | undefined;

/** The parsed value, undefined when absent; a bad value adds a problem and gives undefined. */
export function readAnnotation<T>(annotations: Annotations, spec: AnnotationKey<T>, problems: AnnotationProblem[]): T | undefined {
  const raw = annotations?.[spec.key];
  if (raw === undefined) return undefined;
  try {
    return spec.parse(String(raw));
  } catch (err) {
    if (!(err instanceof AnnotationValueError)) throw err;
    problems.push({ annotation: spec.key, value: String(raw), message: err.message });
    return undefined;
  }
}

/** `tailor.dev/cooldown: "5x": not a duration ...`: one problem as a line. */
export function describeProblem(problem: AnnotationProblem): string {
  return `${problem.annotation}: ${JSON.stringify(problem.value)}: ${problem.message}`;
}
