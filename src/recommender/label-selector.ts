/**
 * Label selectors as workloads carry them (`matchLabels` + `matchExpressions`, or the string form a
 * `/scale` subresource reports in `status.selector`) and whether a pod's labels match one.
 * Worked example: `app=web,tier in (front,edge),!canary` matches `{app: web, tier: edge}` but not
 * `{app: web, tier: edge, canary: "1"}`.
 */

/** One `matchExpressions` entry. */
export interface SelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/** A metav1.LabelSelector. An empty selector matches every pod (as the API defines it). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: SelectorRequirement[];
}

/** A selector string that cannot be parsed. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

/** True when `labels` satisfy every term of `selector`. */
export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, e.key);
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(l[e.key]!))) return false;
    if (e.operator === 'NotIn' && has && values.includes(l[e.key]!)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Splits at commas outside parentheses. */
function terms(input: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of input) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

/** Parses the string form (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) into a {@link LabelSelector}. */
export function parseSelector(input: string): LabelSelector {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: SelectorRequirement[] = [];
  for (const term of terms(input)) {
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      matchExpressions.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
    } else if ((m = term.match(/^([\w./-]+)\s*!=\s*([\w.-]*)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'NotIn', values: [m[2]!] });
    } else if ((m = term.match(/^([\w./-]+)\s*==?\s*([\w.-]*)$/))) {
      matchLabels[m[1]!] = m[2]!;
    } else if ((m = term.match(/^!\s*([\w./-]+)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'DoesNotExist' });
    } else if ((m = term.match(/^([\w./-]+)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'Exists' });
    } else {
      throw new SelectorParseError(`cannot parse label selector term ${JSON.stringify(term)} in ${JSON.stringify(input)}`);
    }
  }
  return { matchLabels, matchExpressions };
}
