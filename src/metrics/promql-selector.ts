/**
 * Pure helpers that build PromQL label matchers and selectors safely: values are quoted as PromQL
 * strings and, inside `=~`, escaped as RE2 literals, so a namespace such as `a.b` matches only itself.
 */

/** A PromQL string literal: `a"b` -> `"a\"b"`. */
export function promqlString(value: string): string {
  return JSON.stringify(value);
}

/** An RE2 pattern matching exactly one of the values: ['a.b', 'c'] -> `a\.b|c`. */
export function exactAlternation(values: readonly string[]): string {
  return values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** One label matcher, e.g. `matcher('namespace', '=~', 'a|b')` -> `namespace=~"a|b"`. */
export function matcher(label: string, op: '=' | '!=' | '=~' | '!~', value: string): string {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label)) throw new Error(`invalid label name ${JSON.stringify(label)}`);
  return `${label}${op}${promqlString(value)}`;
}

/** A matcher selecting exactly the given label values (an `=` for one value, `=~` for several). */
export function oneOf(label: string, values: readonly string[]): string {
  if (values.length === 0) throw new Error(`no values for ${label}`);
  return values.length === 1 ? matcher(label, '=', values[0]!) : matcher(label, '=~', exactAlternation([...values].sort()));
}

/**
 * Checks a user-given extra selector (`cluster="prod", region=~"eu-.*"`): label matchers only,
 * no braces. Returns it trimmed, without a trailing comma.
 */
export function validateExtraSelector(extra: string): string {
  const trimmed = extra.trim().replace(/,\s*$/, '');
  if (trimmed === '') return '';
  const item = String.raw`\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"\s*`;
  if (!new RegExp(`^${item}(,${item})*$`).test(trimmed)) {
    throw new Error(`invalid extra selector ${JSON.stringify(extra)}: expected label matchers such as cluster="prod"`);
  }
  return trimmed;
}

/** `metric{m1,m2,extra}`; empty parts are left out. */
export function selector(metric: string, matchers: readonly string[], extra = ''): string {
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(metric)) throw new Error(`invalid metric name ${JSON.stringify(metric)}`);
  const parts = [...matchers, extra].filter((p) => p !== '');
  return `${metric}{${parts.join(',')}}`;
}

/** A PromQL duration from milliseconds, in whole seconds: 300000 -> `300s`. */
export function duration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds}s`;
}
