/**
 * Which VPA objects this Tailor handles, from `--recommender-name`, `--also-unnamed-vpas`,
 * `--namespace` and `--ignore-namespace`. Pure; the recommender's watch applies it to each VPA.
 *
 * `spec.recommenders` (upstream): a VPA that names no recommender belongs to the default one; a
 * VPA that names some belongs to those.
 *
 * | --recommender-name | spec.recommenders | handled |
 * |---|---|---|
 * | (none) | none | yes (Tailor is the default recommender) |
 * | (none) | [default] | yes |
 * | (none) | [tailor] | no |
 * | tailor | [tailor] or [other, tailor] | yes |
 * | tailor | none | only with --also-unnamed-vpas |
 * | tailor | [default] | no |
 */

/** The selection options (a subset of the run configuration). */
export interface VpaSelection {
  recommenderName?: string | undefined;
  alsoUnnamedVpas: boolean;
  namespace: readonly string[];
  ignoreNamespace: readonly string[];
}

/** The upstream default recommender's name. */
export const DEFAULT_RECOMMENDER_NAME = 'default';

/** True when the VPA's `spec.recommenders` (undefined or [] = none) makes it ours. */
export function handlesRecommenders(recommenders: readonly { name?: string }[] | undefined, s: VpaSelection): boolean {
  const names = (recommenders ?? []).map((r) => r.name ?? '');
  if (s.recommenderName === undefined) return names.length === 0 || names.includes(DEFAULT_RECOMMENDER_NAME);
  if (names.length === 0) return s.alsoUnnamedVpas;
  return names.includes(s.recommenderName);
}

/** True when objects in `namespace` are watched. */
export function namespaceSelected(namespace: string, s: VpaSelection): boolean {
  if (s.ignoreNamespace.includes(namespace)) return false;
  return s.namespace.length === 0 || s.namespace.includes(namespace);
}

/**
 * The namespaces to open watches in: the selected ones, or undefined for a cluster-wide watch
 * (then {@link namespaceSelected} filters out the ignored ones).
 */
export function watchNamespaces(s: VpaSelection): readonly string[] | undefined {
  return s.namespace.length > 0 ? s.namespace : undefined;
}
