/**
 * Per-workload disruption windows (policy/disruption-window.ts):
 * - `tailor.dev/disruption-windows: "* 2-4 * * 1-5"`: 5-field cron expressions separated by `;`;
 *   evictions and resizes that restart a container wait until a minute one of them matches;
 *   in-place resizes that restart nothing go on at any time;
 * - `tailor.dev/disruption-window-timezone: "Europe/Berlin"`: the IANA time zone the expressions
 *   are read in (default UTC); alone, without windows, it is reported as having no effect.
 */
import { knownTimeZone, windowExpressionProblem, type DisruptionWindows } from '../disruption-window.ts';
import { AnnotationValueError, readAnnotation, type AnnotationKey, type AnnotationProblem, type Annotations } from './annotation-key.ts';

export const DISRUPTION_WINDOWS_ANNOTATION: AnnotationKey<string[]> = {
  key: 'tailor.dev/disruption-windows',
  format: '5-field cron expressions separated by ";" (open during every minute one matches)',
  default: 'none: disruptive actions may happen at any time',
  example: '* 2-4 * * 1-5; * * * * 0,6',
  description: 'When evictions and resizes that restart a container may happen; in-place resizes without a restart go on at any time.',
  parse: (text) => {
    const expressions = text
      .split(';')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    if (expressions.length === 0) throw new AnnotationValueError('no cron expression (write e.g. "* 2-4 * * 1-5")');
    const problems = expressions.map(windowExpressionProblem).filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw new AnnotationValueError(problems.join('; '));
    return expressions;
  },
};

export const DISRUPTION_WINDOW_TIMEZONE_ANNOTATION: AnnotationKey<string> = {
  key: 'tailor.dev/disruption-window-timezone',
  format: 'an IANA time zone',
  default: 'UTC',
  example: 'Europe/Berlin',
  description: 'The time zone the disruption windows are read in.',
  parse: (text) => {
    const zone = text.trim();
    if (zone === '' || !knownTimeZone(zone)) throw new AnnotationValueError('not a known time zone (write e.g. Europe/Berlin, America/New_York or UTC)');
    return zone;
  },
};

/** The window keys, in the order the docs list them. */
export const WINDOW_ANNOTATIONS = [DISRUPTION_WINDOWS_ANNOTATION, DISRUPTION_WINDOW_TIMEZONE_ANNOTATION] as const;

/** The VPA's disruption windows, or undefined when it sets none (or a bad one: then a problem is added). */
export function readWindows(annotations: Annotations, problems: AnnotationProblem[]): DisruptionWindows | undefined {
  const before = problems.length;
  const expressions = readAnnotation(annotations, DISRUPTION_WINDOWS_ANNOTATION, problems);
  const timezone = readAnnotation(annotations, DISRUPTION_WINDOW_TIMEZONE_ANNOTATION, problems);
  const zoneRaw = annotations?.[DISRUPTION_WINDOW_TIMEZONE_ANNOTATION.key];
  if (zoneRaw !== undefined && annotations?.[DISRUPTION_WINDOWS_ANNOTATION.key] === undefined) {
    problems.push({
      annotation: DISRUPTION_WINDOW_TIMEZONE_ANNOTATION.key,
      value: zoneRaw,
      message: `has no effect without ${DISRUPTION_WINDOWS_ANNOTATION.key}`,
    });
  }
  if (problems.length > before || expressions === undefined) return undefined;
  return { expressions, timezone: timezone ?? 'UTC' };
}
