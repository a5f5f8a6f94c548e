/**
 * Start-up CPU boost per workload (policy/startup-boost.ts):
 * - `tailor.dev/startup-cpu-boost: "2x"` (a factor above 1) or `"1500m"` / `"2"` (a fixed CPU
 *   request): new pods start with that CPU; only containers whose cpu resizePolicy is NotRequired
 *   are boosted, so giving it back never restarts anything;
 * - `tailor.dev/startup-cpu-boost-duration: "ready+30s"` (default `ready`), or `"90s"` (from the
 *   pod's start): when the updater gives the CPU back in place. Alone it is reported as having no effect.
 */
import { parseCpu } from 'kube-basics/quantity';
import { parseBoostEnd, type BoostAmount, type BoostEnd } from '../startup-boost.ts';
import { AnnotationValueError, readAnnotation, type AnnotationKey, type AnnotationProblem, type Annotations } from './annotation-key.ts';

export const STARTUP_BOOST_ANNOTATION: AnnotationKey<BoostAmount> = {
  key: 'tailor.dev/startup-cpu-boost',
  format: 'a factor above 1 (2x) or a CPU quantity (1500m, 2)',
  default: 'none: pods start with their recommended CPU',
  example: '2x',
  description: 'More CPU for new pods while they start; given back in place (cpu resizePolicy NotRequired only).',
  parse: (text) => {
    const t = text.trim();
    const factor = /^(\d+(?:\.\d+)?)x$/.exec(t);
    if (factor) {
      const f = Number(factor[1]);
      if (!(f > 1 && f <= 100)) throw new AnnotationValueError('a factor must be above 1 and at most 100 (write e.g. 2x)');
      return { kind: 'factor', factor: f };
    }
    let millicores: number;
    try {
      millicores = parseCpu(t);
    } catch {
      throw new AnnotationValueError('neither a factor (2x) nor a CPU quantity (1500m, 2)');
    }
    if (!(millicores > 0)) throw new AnnotationValueError('a CPU quantity must be above 0');
    return { kind: 'fixed', millicores: Math.ceil(millicores) };
  },
};

export const STARTUP_BOOST_DURATION_ANNOTATION: AnnotationKey<BoostEnd> = {
  key: 'tailor.dev/startup-cpu-boost-duration',
  format: 'ready, ready+30s (seconds after Ready) or 90s (seconds from the start)',
  default: 'ready',
  example: 'ready+30s',
  description: 'When the boost is given back: at Ready, some seconds after Ready, or some seconds after the start.',
  parse: (text) => {
    const end = parseBoostEnd(text);
    if (!end) throw new AnnotationValueError('write ready, ready+30s or 90s');
    return end;
  },
};

/** The boost keys, in the order the docs list them. */
export const BOOST_ANNOTATIONS = [STARTUP_BOOST_ANNOTATION, STARTUP_BOOST_DURATION_ANNOTATION] as const;

/** A workload's start-up boost. */
export interface StartupBoost {
  amount: BoostAmount;
  until: BoostEnd;
}

/** The VPA's boost, or undefined when it sets none (or a bad one: then a problem is added). */
export function readBoost(annotations: Annotations, problems: AnnotationProblem[]): StartupBoost | undefined {
  const before = problems.length;
  const amount = readAnnotation(annotations, STARTUP_BOOST_ANNOTATION, problems);
  const until = readAnnotation(annotations, STARTUP_BOOST_DURATION_ANNOTATION, problems);
  const durationRaw = annotations?.[STARTUP_BOOST_DURATION_ANNOTATION.key];
  if (durationRaw !== undefined && annotations?.[STARTUP_BOOST_ANNOTATION.key] === undefined) {
    problems.push({ annotation: STARTUP_BOOST_DURATION_ANNOTATION.key, value: durationRaw, message: `has no effect without ${STARTUP_BOOST_ANNOTATION.key}` });
  }
  if (problems.length > before || amount === undefined) return undefined;
  return { amount, until: until ?? { kind: 'ready', afterMs: 0 } };
}
