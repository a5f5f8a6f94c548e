/**
 * Where a strategy's model state lives between runs: an annotation on the upstream
 * VerticalPodAutoscalerCheckpoint of its VPA x container (decision 0261). Upstream's CRD prunes
 * unknown fields of `status` and `spec`, and upstream's recommender reads only `status`, so the
 * checkpoint stays what upstream reads and writes; an annotation is kept by the API server as is
 * (all of an object's annotations together: at most 256 KiB).
 *
 * Value: `1;<last CPU sample ms>;<last memory sample ms>;<state, base64>` (-Infinity: none yet). Worked number: a tailor
 * model after 8 days of 1-minute samples saves ~2.2 KB, ~3 KB as base64.
 */
import type { ModelThrough } from './vpa-aggregates.ts';

export const MODEL_STATE_ANNOTATION = 'tailor.dev/model-state';
const FORMAT = '1';

/** A malformed annotation (the state itself is checked by the strategy). */
export class ModelStateAnnotationError extends Error {
  override readonly name = 'ModelStateAnnotationError';
}

/** The annotation's value for `state`, saved after the samples up to `through`. */
export function encodeModelState(state: Uint8Array, through: ModelThrough): string {
  return `${FORMAT};${through.cpu};${through.memory};${Buffer.from(state.buffer, state.byteOffset, state.byteLength).toString('base64')}`;
}

/** The state and times in an annotation's value; throws {@link ModelStateAnnotationError} saying what is wrong. */
export function decodeModelState(value: string): { state: Uint8Array; through: ModelThrough } {
  const parts = value.split(';');
  if (parts.length !== 4) throw new ModelStateAnnotationError(`expected 4 fields separated by ";", got ${parts.length}`);
  const [format, cpu, memory, data] = parts as [string, string, string, string];
  if (format !== FORMAT) throw new ModelStateAnnotationError(`format ${JSON.stringify(format)}; this build reads format ${FORMAT}`);
  const through = { cpu: Number(cpu), memory: Number(memory) };
  if (Number.isNaN(through.cpu) || Number.isNaN(through.memory) || cpu === '' || memory === '')
    throw new ModelStateAnnotationError(`the last sample times ${JSON.stringify(cpu)}, ${JSON.stringify(memory)} are not ms since the epoch`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new ModelStateAnnotationError('the state is not base64');
  return { state: new Uint8Array(Buffer.from(data, 'base64')), through };
}
