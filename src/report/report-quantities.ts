/**
 * Quantities of the report as Kubernetes strings: exact for machine formats (`"587m"`,
 * `"272629760"`), rounded up to whole MiB for people (`"260Mi"`), signed for differences.
 */
import { formatCpu, formatMemory, roundUpToMiB } from 'kube-basics/quantity';

/** CPU millicores -> `"587m"` / `"2"`; undefined -> null. */
export function cpuText(millicores: number | undefined): string | null {
  return millicores === undefined ? null : formatCpu(millicores);
}

/** Memory bytes -> `"512Mi"` when exact, else whole bytes; undefined -> null. */
export function memoryText(bytes: number | undefined): string | null {
  return bytes === undefined ? null : formatMemory(bytes);
}

/** Memory for people: rounded up to MiB, `"260Mi"`. */
export function memoryHuman(bytes: number | undefined): string | null {
  return bytes === undefined ? null : formatMemory(roundUpToMiB(bytes));
}

/** A signed quantity: -250 millicores -> `"-250m"`, 1 GiB -> `"+1Gi"`, 0 -> `"0"`. */
export function signed(value: number | undefined, format: (v: number) => string | null): string | null {
  if (value === undefined) return null;
  if (value === 0) return '0';
  return `${value < 0 ? '-' : '+'}${format(Math.abs(value))}`;
}
