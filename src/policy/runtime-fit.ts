/**
 * Does a container's memory resizePolicy fit its runtime (container-runtime.ts)? Pure.
 * - a start-sized runtime (JVM, PostgreSQL, MySQL, Redis) with memory `NotRequired` (also the
 *   default when not listed): an in-place change of its limit gives it no more heap or buffers and
 *   lowering it invites an OOM kill; memory `RestartContainer` restarts it with the new size;
 * - a runtime that follows the limit (Go, Node.js, Python, Envoy, nginx) with memory
 *   `RestartContainer`: every memory resize restarts it for nothing.
 * Unknown runtimes get no warning. Example: `container app runs jvm (-Xmx 2048Mi, from env
 * JAVA_TOOL_OPTIONS), which sizes its memory at start: resizePolicy memory NotRequired changes its
 * limit without giving it more heap; set memory to RestartContainer (and allow restarts with
 * tailor.dev/allow-container-restart) so a memory resize restarts it with the new size`.
 */
import type { V1Container } from '@kubernetes/client-node';
import { describeRuntime, detectRuntime } from './container-runtime.ts';
import type { RuntimeOverrides } from './runtime-annotation.ts';

/** A misfit of one container. */
export interface RuntimeFitWarning {
  container: string;
  message: string;
}

function memoryPolicy(container: V1Container): 'NotRequired' | 'RestartContainer' {
  return container.resizePolicy?.find((p) => p.resourceName === 'memory')?.restartPolicy === 'RestartContainer' ? 'RestartContainer' : 'NotRequired';
}

/** The runtime override for a container: its own entry, else `*`. */
export function overrideFor(overrides: RuntimeOverrides | undefined, container: string): ReturnType<RuntimeOverrides['get']> {
  return overrides?.get(container) ?? overrides?.get('*');
}

/** Warnings for the containers (of a pod or pod template) whose memory resizePolicy does not fit their runtime. */
export function runtimeFitWarnings(containers: readonly V1Container[], overrides?: RuntimeOverrides): RuntimeFitWarning[] {
  const out: RuntimeFitWarning[] = [];
  for (const c of containers) {
    const rt = detectRuntime(c, overrideFor(overrides, c.name));
    const policy = memoryPolicy(c);
    if (rt.behaviour === 'start-sized' && policy === 'NotRequired') {
      out.push({
        container: c.name,
        message: `container ${c.name} runs ${describeRuntime(rt)}, which sizes its memory at start: resizePolicy memory NotRequired changes its limit without giving it more memory to use; set memory to RestartContainer (and allow restarts with tailor.dev/allow-container-restart) so a memory resize restarts it with the new size`,
      });
    } else if (rt.behaviour === 'follows-limit' && policy === 'RestartContainer') {
      out.push({
        container: c.name,
        message: `container ${c.name} runs ${describeRuntime(rt)}, which follows its memory limit: resizePolicy memory RestartContainer restarts it on every memory resize for nothing; NotRequired resizes it without a restart`,
      });
    }
  }
  return out;
}
