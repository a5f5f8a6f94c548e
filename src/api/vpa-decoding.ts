/**
 * What upstream's admission controller says when it cannot even decode a VPA into its Go type: it
 * reads every quantity field (`minAllowed`, `maxAllowed`, `oomBumpUpRatio`, `oomMinBumpUp`,
 * `startupBoost.cpu.quantity`, the status' bounds) with Kubernetes' quantity parser, and the first
 * value that parser refuses fails the whole object with the parser's own sentence, e.g. for
 * `oomBumpUpRatio: "not-a-number"` or `minAllowed: {requests: {cpu: 50m}}` (an object where a
 * quantity belongs):
 * `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`.
 * The webhook denies such an object with that sentence alone, as upstream does (upstream's e2e
 * compares the whole message), before the field-by-field checks of validate-vpa.ts. Pure.
 */
import { isPlainObject } from './field-errors.ts';

/** Kubernetes' quantity parser's sentence for text of the wrong shape. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** ... for a well-shaped text whose suffix is none of the known ones (`5ki`, `1e`). */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** Sign, digits with one optional point, then letters of the suffix alphabet and a signed exponent. */
const SHAPE = /^[+-]?[0-9]*(?:\.[0-9]*)?([eEinumkKMGTP]*[+-]?[0-9]*)$/;
const SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const EXPONENT = /^[eE][+-]?[0-9]+$/;

/**
 * The quantity parser's error for a JSON value where a quantity belongs, or undefined when it
 * parses: a string (trimmed) or a number; `null` is no quantity at all; anything else (an object,
 * a list, a boolean) is text of the wrong shape.
 */
export function quantityDecodeError(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') return QUANTITY_FORMAT_ERROR;
  const text = String(value).trim();
  const shape = SHAPE.exec(text);
  if (text === '' || !shape) return QUANTITY_FORMAT_ERROR;
  const suffix = shape[1]!;
  return SUFFIXES.has(suffix) || EXPONENT.test(suffix) ? undefined : QUANTITY_SUFFIX_ERROR;
}

/** Where quantities sit in a VPA: `Q` a quantity, `{ list }` each item, `{ map }` each value, else the named fields. */
type Shape = 'Q' | { list: Shape } | { map: Shape } | { fields: Record<string, Shape> };

const BOOST: Shape = { fields: { cpu: { fields: { quantity: 'Q' } } } };
const RESOURCES: Shape = { map: 'Q' };
const VPA_SHAPE: Shape = {
  fields: {
    spec: {
      fields: {
        resourcePolicy: {
          fields: {
            containerPolicies: {
              list: { fields: { minAllowed: RESOURCES, maxAllowed: RESOURCES, oomBumpUpRatio: 'Q', oomMinBumpUp: 'Q', startupBoost: BOOST } },
            },
          },
        },
        startupBoost: BOOST,
      },
    },
    status: {
      fields: {
        recommendation: {
          fields: {
            containerRecommendations: { list: { fields: { target: RESOURCES, lowerBound: RESOURCES, upperBound: RESOURCES, uncappedTarget: RESOURCES } } },
          },
        },
      },
    },
  },
};

/** The first quantity error met reading `value` in document order, or undefined. */
function walk(value: unknown, shape: Shape): string | undefined {
  if (shape === 'Q') return quantityDecodeError(value);
  if ('list' in shape) {
    if (!Array.isArray(value)) return undefined; // a wrong structure is validate-vpa.ts' to name
    for (const item of value) {
      const error = walk(item, shape.list);
      if (error) return error;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const next = 'map' in shape ? shape.map : shape.fields[key];
    const error = next === undefined ? undefined : walk(child, next);
    if (error) return error;
  }
  return undefined;
}

/** The error upstream's decoding of this VPA object fails with, or undefined when it decodes. */
export function vpaDecodeError(object: unknown): string | undefined {
  return walk(object, VPA_SHAPE);
}
