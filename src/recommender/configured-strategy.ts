/**
 * The strategy behind the recommender's status in `tailor run`: `--recommender-strategy` (none for
 * `vpa`, upstream's algorithm, which models no updater), built with the updater's options as the
 * operator set them (the same flags and `TAILOR_*` variables the updater reads, over its defaults).
 * So the tailor strategies hold a target for the updater's cooldown, reach it in its steps and
 * check their memory rules against its pressure guard as it is configured, not as it is by default
 * (decision 0289). Example: `TAILOR_MEMORY_PRESSURE_RATIO=0.8` moves the updater's pressure line to
 * 80% of the limit, and the strategy's checks with it.
 */
import { createStrategyRegistry } from '../model/builtin-strategies.ts';
import type { Strategy } from '../model/types.ts';
import { runUpdaterOptions, type UpdaterConfig } from '../updater/updater-options.ts';
import type { RecommenderConfig } from './recommender-options.ts';

/** The configured strategy (undefined for `vpa`), for the updater's options of `config`. */
export function configuredStrategy(config: RecommenderConfig & UpdaterConfig): Strategy | undefined {
  if (config.recommenderStrategy === 'vpa') return undefined;
  return createStrategyRegistry(runUpdaterOptions(config)).get(config.recommenderStrategy);
}
