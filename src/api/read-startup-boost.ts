/**
 * Reads upstream 1.8's `startupBoost` (`spec.startupBoost` and `containerPolicies[].startupBoost`)
 * with upstream's rules: `cpu.type` is `Factor` (a whole `factor` >= 1, no `quantity`) or
 * `Quantity` (a `quantity` in whole millicores, no `factor`), the pairing the upstream CRD checks
 * with CEL and its webhook checks again. Tailor also refuses a negative `durationSeconds`
 * (upstream ignores it: the boost would end at Ready) and a negative quantity (it would lower the
 * CPU). Used by `validateVpa`.
 */
import { fieldPath } from './field-errors.ts';
import type { Reader } from './field-reader.ts';
import { isWholeAmount } from './quantity-resolution.ts';
import { STARTUP_BOOST_TYPES, type GenericStartupBoost, type VpaStartupBoost } from './vpa.ts';

/** `startupBoost` at `path`, normalised, or undefined when wrong (the errors are in `r`). */
export function readStartupBoost(r: Reader, value: unknown, path: string): VpaStartupBoost | undefined {
  const boost = r.object(value, path, ['cpu']);
  if (!boost) return undefined;
  if (boost.cpu === undefined || boost.cpu === null) return {};
  const cpu = readCpuBoost(r, boost.cpu, fieldPath(path, 'cpu'));
  return cpu ? { cpu } : undefined;
}

function readCpuBoost(r: Reader, value: unknown, path: string): GenericStartupBoost | undefined {
  const cpu = r.object(value, path, ['type', 'factor', 'quantity', 'durationSeconds']);
  if (!cpu) return undefined;
  const before = r.errors.length;
  const type = cpu.type === undefined ? r.fail(`${path}.type`, 'is required: "Factor" or "Quantity"') : r.oneOf(cpu.type, `${path}.type`, STARTUP_BOOST_TYPES);
  const out: Partial<GenericStartupBoost> = { type };
  if (type === 'Factor' && cpu.factor === undefined) r.fail(`${path}.factor`, 'is required when type is "Factor"');
  if (type === 'Quantity' && cpu.quantity === undefined) r.fail(`${path}.quantity`, 'is required when type is "Quantity"');
  if (cpu.factor !== undefined) {
    if (type !== undefined && type !== 'Factor') r.fail(`${path}.factor`, `must not be set when type is ${JSON.stringify(type)}`);
    else out.factor = r.integer(cpu.factor, `${path}.factor`, 1);
  }
  if (cpu.quantity !== undefined) {
    if (type !== undefined && type !== 'Quantity') r.fail(`${path}.quantity`, `must not be set when type is ${JSON.stringify(type)}`);
    else {
      const quantity = r.quantity('cpu', cpu.quantity, `${path}.quantity`);
      if (quantity !== undefined && !isWholeAmount('cpu', quantity)) r.fail(`${path}.quantity`, `${quantity} is not a whole number of millicores`);
      else out.quantity = quantity;
    }
  }
  if (cpu.durationSeconds !== undefined) out.durationSeconds = r.integer(cpu.durationSeconds, `${path}.durationSeconds`, 0);
  return r.errors.length > before ? undefined : (out as GenericStartupBoost);
}
