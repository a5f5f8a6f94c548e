/**
 * Quantities as the real API server stores and returns them: every quantity it decodes is printed
 * back in canonical form (Quantity.String()), so `1000` cores come back as `1k`, `2000m` as `2`,
 * `0.5` as `500m` and `2048Mi` as `2Gi`, while `1500m`, `300m` and `1536Mi` stay as they are.
 * Binary quantities (Ki, Mi, ...) keep the largest exact power of 1024 and print plainly below
 * 1024; decimal ones print milli-units, or the largest exact power of 1000. Exponent forms (`1e3`)
 * are left as written.
 */
import { isQuantity, parseQuantity } from 'kube-basics/quantity';

const BINARY_SUFFIX = /(Ki|Mi|Gi|Ti|Pi|Ei)$/;
const DECIMAL_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

/** `milli` (a value in thousandths) printed canonically, in the format of `like` (binary when it has a binary suffix). */
export function formatQuantity(milli: number, like: string | number): string {
  const m = Math.round(milli);
  if (typeof like === 'string' && BINARY_SUFFIX.test(like.trim()) && m % 1000 === 0 && Math.abs(m) >= 1024 * 1000) {
    let n = m / 1000;
    let i = 0;
    while (i < 6 && n % 1024 === 0) {
      n /= 1024;
      i += 1;
    }
    return `${n}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][i]}`;
  }
  if (m % 1000 !== 0) return `${m}m`;
  let n = m / 1000;
  let i = 0;
  while (i < 6 && n !== 0 && n % 1000 === 0) {
    n /= 1000;
    i += 1;
  }
  return `${n}${DECIMAL_SUFFIXES[i]}`;
}

/** A quantity's text as the server returns it; anything that is not a quantity, or an exponent form, unchanged. */
export function canonicalQuantity(text: unknown): unknown {
  if (typeof text !== 'string' || !isQuantity(text) || /[eE]/.test(text)) return text;
  return formatQuantity(parseQuantity(text, 3), text);
}

/** Rewrites each quantity of a resource list (`requests`, `limits`) in place, canonically. */
export function canonicalizeResourceList(list: unknown): void {
  if (list === null || typeof list !== 'object' || Array.isArray(list)) return;
  const entries = list as Record<string, unknown>;
  for (const [name, value] of Object.entries(entries)) entries[name] = canonicalQuantity(value);
}
