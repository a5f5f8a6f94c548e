/**
 * Which autoscaler the conformance lane runs upstream's suite against: Tailor (the default),
 * installed from its manifests, or upstream VPA v1.8.1 itself, deployed as upstream's CI deploys it
 * (upstream-install.ts), to get upstream's own table on the same cluster for comparison. run-suites.ts
 * drives either through `ConformanceAutoscaler`.
 */
import type { TailorComponent } from './suites.ts';

export const AUTOSCALER_MODES = ['tailor', 'upstream'] as const;
export type AutoscalerMode = (typeof AUTOSCALER_MODES)[number];

/** How the tables and the summary name each autoscaler. */
export const AUTOSCALER_NAMES: Readonly<Record<AutoscalerMode, string>> = { tailor: 'Tailor', upstream: 'upstream VPA v1.8.1' };

/** The mode of `TAILOR_CONFORMANCE_AUTOSCALER` (unset or empty: tailor); throws on another value. */
export function autoscalerMode(value: string | undefined): AutoscalerMode {
  if (value === undefined || value === '') return 'tailor';
  if ((AUTOSCALER_MODES as readonly string[]).includes(value)) return value as AutoscalerMode;
  throw new Error(`TAILOR_CONFORMANCE_AUTOSCALER=${value} is not one of ${AUTOSCALER_MODES.join(', ')}`);
}

/** What the lane's driver needs of an autoscaler: set up once, install per suite, tear down. */
export interface ConformanceAutoscaler {
  /** Its name in the table (AUTOSCALER_NAMES). */
  readonly name: string;
  /** Where its components run: the suite's `VPA_NAMESPACE` (status Lease, component pods). */
  readonly namespace: string;
  /** The middle of the per-suite log file of its pods: `<suite>.<logName>.log`. */
  readonly logName: string;
  /** What every suite shares (its metrics source); once, before the first suite. */
  start(): Promise<void>;
  /** Installs the components upstream deploys for `suite` and waits until they are Ready. */
  install(suite: string, components: readonly TailorComponent[]): Promise<void>;
  /** Its components' logs (empty when none runs). */
  logs(): string;
  /** Removes what `install` made, and waits until it is gone (the CRDs included). */
  uninstall(): Promise<void>;
  /** Ends what `start` began. */
  stop(): Promise<void>;
}
