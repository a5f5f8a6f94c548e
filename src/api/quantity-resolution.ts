/**
 * Whether a quantity is a whole number of the unit Kubernetes stores it in: millicores for CPU
 * (`250m`, `0.25` yes; `0.5m`, `100u` no), bytes for memory (`1Gi`, `1.5Ki` yes; `1.5`, `100m` no).
 * VPA bounds finer than that are rejected, as upstream does. Checked at the finest decimal scale at
 * which the quantity fits a safe integer (nano units for anything below 9e6 units), which is exact
 * for every quantity Kubernetes itself keeps (it has no precision below 1n).
 */
import { parseQuantity } from 'kube-basics/quantity';

/** True if `quantity` is a whole number of millicores (cpu) or bytes (memory). Assumes a valid quantity. */
export function isWholeAmount(resource: 'cpu' | 'memory', quantity: string): boolean {
  const unit = resource === 'cpu' ? -3 : 0; // the unit's decimal exponent: 1m = 10^-3, 1 byte = 10^0
  for (const extra of [9, 6, 3, 0]) {
    let scaled: number;
    try {
      scaled = parseQuantity(quantity, unit * -1 + extra);
    } catch {
      continue; // too large at this scale: try a coarser one
    }
    return scaled % 10 ** extra === 0;
  }
  return true;
}
