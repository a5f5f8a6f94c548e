/**
 * What cAdvisor would count for one running container, advanced in steps of simulated time.
 *
 * CPU: the container wants `demand` millicores; it gets at most its limit. The usage counter
 * grows by used cores x seconds: 250m for 60 s adds 15 CPU-seconds. CFS periods are 100 ms; while
 * demand exceeds the limit every period of the step counts as throttled (60 s = 600 periods).
 * Memory: the working set is the demand; above the memory limit the kernel OOM-kills the container
 * (the caller restarts it: restartCount + 1, lastState OOMKilled) and the OOM counter grows.
 */

export interface ContainerMeter {
  cpuSecondsTotal: number;
  cfsPeriodsTotal: number;
  cfsThrottledPeriodsTotal: number;
  oomEventsTotal: number;
  /** Last CPU usage (millicores) and working set (bytes). */
  cpuMillicores: number;
  workingSetBytes: number;
}

export const CFS_PERIOD_MS = 100;

export function newMeter(): ContainerMeter {
  return { cpuSecondsTotal: 0, cfsPeriodsTotal: 0, cfsThrottledPeriodsTotal: 0, oomEventsTotal: 0, cpuMillicores: 0, workingSetBytes: 0 };
}

export interface MeterInput {
  dtMs: number;
  cpuDemand: number;
  memoryDemand: number;
  cpuLimit?: number;
  memoryLimit?: number;
}

/** Advances the meter by one step; `oomKilled` tells the caller to restart the container. */
export function advanceMeter(meter: ContainerMeter, input: MeterInput): { meter: ContainerMeter; oomKilled: boolean } {
  const cpu = input.cpuLimit === undefined ? input.cpuDemand : Math.min(input.cpuDemand, input.cpuLimit);
  const throttled = input.cpuLimit !== undefined && input.cpuDemand > input.cpuLimit;
  const periods = input.dtMs / CFS_PERIOD_MS;
  const oomKilled = input.memoryLimit !== undefined && input.memoryDemand > input.memoryLimit;
  return {
    oomKilled,
    meter: {
      cpuSecondsTotal: meter.cpuSecondsTotal + (cpu / 1000) * (input.dtMs / 1000),
      cfsPeriodsTotal: meter.cfsPeriodsTotal + (input.cpuLimit === undefined ? 0 : periods),
      cfsThrottledPeriodsTotal: meter.cfsThrottledPeriodsTotal + (throttled ? periods : 0),
      oomEventsTotal: meter.oomEventsTotal + (oomKilled ? 1 : 0),
      cpuMillicores: cpu,
      workingSetBytes: oomKilled ? 0 : input.memoryDemand,
    },
  };
}
