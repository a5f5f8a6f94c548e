/**
 * The settings of upstream VPA's recommender that `bench:quality` sweeps to draw vpa's slack-versus-
 * risk curve (issue 33 item 1): the knobs upstream exposes as flags, nothing of Tailor's.
 *  - target percentile: `--target-cpu-percentile` and `--target-memory-percentile` (one value for
 *    both, so one replay gives a CPU point and a memory point); the bound percentiles
 *    (`--recommendation-lower-bound-*-percentile`, `--recommendation-upper-bound-*-percentile`) are
 *    widened to keep the target between them (lower <= target <= upper), upstream's defaults otherwise;
 *  - safety margin: `--recommendation-margin-fraction`;
 *  - OOM bump: `--oom-bump-up-ratio` and `--oom-min-bump-up-bytes`.
 * The grid is small on purpose (the sweep must not make the bench much longer): it is dense around
 * upstream's defaults (p0.9, +15%, x1.2 / 100 MiB), where the default strategy's risk lies.
 */
import { vpaStrategy } from '../src/model/vpa-strategy.ts';
import type { Strategy } from '../src/model/types.ts';

const MiB = 1024 * 1024;

/** One swept setting of upstream's flags. */
export interface VpaSetting {
  percentile: number;
  margin: number;
  oomBumpUpRatio: number;
  oomMinBumpUpBytes: number;
}

/** Upstream's defaults: p0.9 target, +15% margin, OOM bump x1.2 or +100 MiB. */
export const VPA_DEFAULT_SETTING: Readonly<VpaSetting> = Object.freeze({ percentile: 0.9, margin: 0.15, oomBumpUpRatio: 1.2, oomMinBumpUpBytes: 100 * MiB });

/**
 * The swept settings, upstream's defaults first: target percentile 0.5-0.99 x margin 0-0.3 at the
 * default OOM bump, wider margins at p0.9 and p0.99 (+50%, +100%: the low-risk end, which the
 * default strategy reaches on bursty traces), and two other OOM bumps at the default percentile and
 * margin (a bump changes memory only).
 */
export const VPA_SWEEP: readonly VpaSetting[] = Object.freeze([
  VPA_DEFAULT_SETTING,
  ...[0.5, 0.8, 0.9, 0.95, 0.99]
    .flatMap((percentile) => [0, 0.15, 0.3].map((margin) => ({ ...VPA_DEFAULT_SETTING, percentile, margin })))
    .filter((s) => !(s.percentile === 0.9 && s.margin === 0.15)),
  { ...VPA_DEFAULT_SETTING, margin: 0.5 },
  { ...VPA_DEFAULT_SETTING, percentile: 0.99, margin: 0.5 },
  { ...VPA_DEFAULT_SETTING, percentile: 0.99, margin: 1 },
  { ...VPA_DEFAULT_SETTING, oomBumpUpRatio: 1.1, oomMinBumpUpBytes: 50 * MiB },
  { ...VPA_DEFAULT_SETTING, oomBumpUpRatio: 1.5, oomMinBumpUpBytes: 250 * MiB },
]);

/** A short name for a setting: "p0.9 m0.15" and, when the OOM bump is not upstream's, " oom x1.5/250Mi". */
export function settingLabel(s: VpaSetting): string {
  const bump =
    s.oomBumpUpRatio === VPA_DEFAULT_SETTING.oomBumpUpRatio && s.oomMinBumpUpBytes === VPA_DEFAULT_SETTING.oomMinBumpUpBytes
      ? ''
      : ` oom x${s.oomBumpUpRatio}/${Math.round(s.oomMinBumpUpBytes / MiB)}Mi`;
  return `p${s.percentile} m${s.margin}${bump}`;
}

/** True for upstream's defaults. */
export function isDefaultSetting(s: VpaSetting): boolean {
  return settingLabel(s) === settingLabel(VPA_DEFAULT_SETTING);
}

/** The `vpa` strategy with upstream's flags set to `s`, named `vpa <label>`. */
export function vpaSweepStrategy(s: VpaSetting): Strategy {
  return vpaStrategy(
    {
      targetCpuPercentile: s.percentile,
      targetMemoryPercentile: s.percentile,
      lowerBoundCpuPercentile: Math.min(0.5, s.percentile),
      lowerBoundMemoryPercentile: Math.min(0.5, s.percentile),
      upperBoundCpuPercentile: Math.max(0.95, s.percentile),
      upperBoundMemoryPercentile: Math.max(0.95, s.percentile),
      safetyMarginFraction: s.margin,
      oomBumpUpRatio: s.oomBumpUpRatio,
      oomMinBumpUpBytes: s.oomMinBumpUpBytes,
    },
    `vpa ${settingLabel(s)}`,
  );
}
