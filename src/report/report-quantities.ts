/**
 * Quantities of the report as Kubernetes strings in the units a person reads: CPU in whole
 * millicores or cores (`"587m"`, `"2"`), memory rounded up to whole MiB (`"260Mi"`, never
 * `"272629760"`), signed for differences; every format of `tailor recommend` and `tailor audit`
 * prints them (the exact numbers ride beside them in the JSON). A figure
 * that is not a finite, non-negative number has no quantity: it comes out as null (printed `-`)
 * rather than failing the whole report.
 */
import { formatCpu, formatMemory, roundUpToMiB } from 'kube-basics/quantity';

/** CPU millicores -> `"587m"` / `"2"`; undefined -> null. */
export function cpuText(millicores: number | undefined): string | null {
  return printable(millicores) ? formatCpu(millicores) : null;
}

function printable(v: number | undefined): v is number {
  return v !== undefined && Number.isFinite(v) && v >= 0;
}

/** Memory for people: rounded up to MiB, `"260Mi"`. */
export function memoryHuman(bytes: number | undefined): string | null {
  return printable(bytes) ? formatMemory(roundUpToMiB(bytes)) : null;
}

/** A signed quantity: -250 millicores -> `"-250m"`, 1 GiB -> `"+1Gi"`, 0 -> `"0"`. */
export function signed(value: number | undefined, format: (v: number) => string | null): string | null {
  if (value === undefined || Number.isNaN(value)) return null;
  if (value === 0) return '0';
  return `${value < 0 ? '-' : '+'}${format(Math.abs(value))}`;
}
