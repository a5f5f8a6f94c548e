/**
 * Label selectors: the string form used in `?labelSelector=` (`app=web,tier!=db,env in (a,b),
 * !legacy, track`) and the structured `LabelSelector` (matchLabels + matchExpressions) used by
 * Deployments, PDBs and webhooks. Both compile to a list of requirements that all must hold.
 */
import { badRequest } from './api-error.ts';

/** One requirement of a selector. */
export interface LabelRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

/** A compiled selector: every requirement must match. Empty = matches everything. */
export type LabelMatcher = readonly LabelRequirement[];

/** The structured selector of the API (`metav1.LabelSelector`). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

const SET_RE = /^([A-Za-z0-9._/-]+)\s+(in|notin)\s*\(([^)]*)\)$/;
const EQ_RE = /^([A-Za-z0-9._/-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/;
const KEY_RE = /^(!?)\s*([A-Za-z0-9._/-]+)$/;

/** Parses the string form; throws 400 BadRequest on a malformed selector. */
export function parseLabelSelector(text: string | undefined | null): LabelMatcher {
  if (!text) return [];
  return splitTopLevel(text).map((part): LabelRequirement => {
    const set = SET_RE.exec(part);
    if (set) {
      const values = (set[3] as string)
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
      return { key: set[1] as string, operator: set[2] === 'in' ? 'In' : 'NotIn', values };
    }
    const eq = EQ_RE.exec(part);
    if (eq) return { key: eq[1] as string, operator: eq[2] === '!=' ? 'NotIn' : 'In', values: [eq[3] as string] };
    const key = KEY_RE.exec(part);
    if (key) return { key: key[2] as string, operator: key[1] === '!' ? 'DoesNotExist' : 'Exists', values: [] };
    throw badRequest(`unable to parse requirement: found '${part}', expected: identifier, !, in, notin, =, ==, !=`);
  });
}

/** Compiles the structured form. A missing selector object matches nothing when `nilMatchesNothing`. */
export function compileLabelSelector(selector: LabelSelectorObject): LabelMatcher {
  const out: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) out.push({ key, operator: 'In', values: [value] });
  for (const expr of selector.matchExpressions ?? []) {
    if (expr.operator !== 'In' && expr.operator !== 'NotIn' && expr.operator !== 'Exists' && expr.operator !== 'DoesNotExist') {
      throw badRequest(`"${expr.operator}" is not a valid label selector operator`);
    }
    out.push({ key: expr.key, operator: expr.operator, values: expr.values ?? [] });
  }
  return out;
}

/** True when the labels satisfy every requirement. */
export function matchesLabels(matcher: LabelMatcher, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const req of matcher) {
    const has = Object.prototype.hasOwnProperty.call(l, req.key);
    const value = l[req.key];
    switch (req.operator) {
      case 'In':
        if (!has || !req.values.includes(value as string)) return false;
        break;
      case 'NotIn':
        if (has && req.values.includes(value as string)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
    }
  }
  return true;
}

/** The string form of a structured selector (what `Scale.status.selector` carries). */
export function formatLabelSelector(selector: LabelSelectorObject): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) parts.push(`${key}=${value}`);
  for (const expr of selector.matchExpressions ?? []) {
    if (expr.operator === 'Exists') parts.push(expr.key);
    else if (expr.operator === 'DoesNotExist') parts.push(`!${expr.key}`);
    else parts.push(`${expr.key} ${expr.operator.toLowerCase()} (${(expr.values ?? []).join(',')})`);
  }
  return parts.join(',');
}
