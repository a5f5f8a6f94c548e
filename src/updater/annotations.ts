/**
 * The annotations the updater reads, and what they mean.
 * - On the VPA, `tailor.dev/allow-container-restart: "true" | "false"` allows (or forbids) in-place
 *   resizes that restart a container (resizePolicy `RestartContainer`); without it the global
 *   option `allowContainerRestart` decides.
 * - On a pod, `tailor.dev/last-update: <RFC 3339>` is when the updater last changed it; the
 *   cooldown and the OOM rule start from it (see pod-timing.ts for the managedFields fallback).
 */
import type { VerticalPodAutoscaler } from '../api/vpa.ts';

export const ALLOW_RESTART_ANNOTATION = 'tailor.dev/allow-container-restart';
export const LAST_UPDATE_ANNOTATION = 'tailor.dev/last-update';

/** True if resizes that restart a container are allowed for the VPA's pods. */
export function containerRestartAllowed(vpa: VerticalPodAutoscaler, globalDefault: boolean): boolean {
  const value = vpa.metadata.annotations?.[ALLOW_RESTART_ANNOTATION]?.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return globalDefault;
}
