/**
 * Reads an untrusted parsed YAML/JSON value field by field, collecting a `FieldError` (path and
 * message) for every problem instead of throwing. Each method returns the normalised value, or
 * undefined when the field is wrong. Used by `validateVpa`.
 */
import { QuantityError, parseCpu, parseMemory, parseQuantity } from 'kube-basics/quantity';
import { isWholeAmount } from './quantity-resolution.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import { describeType, fieldPath, isPlainObject, type FieldError } from './field-errors.ts';
import type { ResourceList } from './vpa.ts';

/** The largest value of the API's int32 fields. */
export const INT32_MAX = 2_147_483_647;

/** Collects errors while reading; each `read...` returns the normalised value or undefined. */
export class Reader {
  constructor(readonly errors: FieldError[]) {}

  fail(path: string, message: string): undefined {
    this.errors.push({ path, message });
    return undefined;
  }

  object(value: unknown, path: string, known?: readonly string[]): Record<string, unknown> | undefined {
    if (!isPlainObject(value)) return this.fail(path, `must be an object, not ${describeType(value)}`);
    if (known) {
      for (const key of Object.keys(value)) {
        if (!known.includes(key)) this.fail(fieldPath(path, key), `unknown field (known fields: ${known.join(', ')})`);
      }
    }
    return value;
  }

  list(value: unknown, path: string): unknown[] | undefined {
    if (!Array.isArray(value)) return this.fail(path, `must be a list, not ${describeType(value)}`);
    return value;
  }

  string(value: unknown, path: string): string | undefined {
    if (typeof value !== 'string') return this.fail(path, `must be a string, not ${describeType(value)}`);
    return value;
  }

  requiredString(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return this.fail(path, 'is required');
    const s = this.string(value, path);
    if (s !== undefined && s.trim() === '') return this.fail(path, 'must not be empty');
    return s;
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    const supported = allowed.map((a) => JSON.stringify(a)).join(', ');
    return this.fail(path, `unsupported value ${JSON.stringify(value)}: supported values are ${supported}`);
  }

  /** A whole number in [min, max] (the API's int32 fields by default). */
  integer(value: unknown, path: string, min: number, max = INT32_MAX): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.fail(path, `must be an integer, not ${JSON.stringify(value)}`);
    if (value < min) return this.fail(path, `must be greater than or equal to ${min}, not ${value}`);
    if (value > max) return this.fail(path, `must be at most ${max}, not ${value}`);
    return value;
  }

  /**
   * A quantity that is neither cpu nor memory (a ratio such as `"1.5"`): its text (a number
   * becomes a string) and its value in thousandths (`"1.5"` -> 1500), or undefined when malformed.
   */
  plainQuantity(raw: unknown, path: string): { text: string; milli: number } | undefined {
    if (typeof raw !== 'string' && typeof raw !== 'number') return this.fail(path, `must be a quantity such as "1.5", not ${describeType(raw)}`);
    const text = typeof raw === 'number' ? String(raw) : raw.trim();
    try {
      return { text, milli: parseQuantity(text, 3) };
    } catch (err) {
      if (err instanceof QuantityError) return this.fail(path, err.message);
      throw err;
    }
  }

  resourceName(value: unknown, path: string): ResourceName | undefined {
    if (typeof value === 'string' && (RESOURCE_NAMES as readonly string[]).includes(value)) return value as ResourceName;
    return this.fail(path, `unsupported resource ${JSON.stringify(value)}: Tailor controls only "cpu" and "memory"`);
  }

  /** A list of distinct resource names. */
  resourceNames(value: unknown, path: string): ResourceName[] | undefined {
    const items = this.list(value, path);
    if (!items) return undefined;
    const out: ResourceName[] = [];
    items.forEach((item, i) => {
      const name = this.resourceName(item, fieldPath(path, i));
      if (name === undefined) return;
      if (out.includes(name)) this.fail(fieldPath(path, i), `duplicate resource ${JSON.stringify(name)}`);
      else out.push(name);
    });
    return out;
  }

  /** A resource list `{cpu: "250m", memory: "1Gi"}`; numbers become strings. `whole`: whole millicores / bytes only. */
  resourceList(value: unknown, path: string, whole = false): ResourceList | undefined {
    const obj = this.object(value, path);
    if (!obj) return undefined;
    const out: ResourceList = {};
    for (const [key, raw] of Object.entries(obj)) {
      const keyPath = fieldPath(path, key);
      const name = this.resourceName(key, keyPath);
      if (name === undefined) continue;
      const quantity = this.quantity(name, raw, keyPath);
      if (quantity === undefined) continue;
      if (whole && !isWholeAmount(name, quantity)) {
        this.fail(keyPath, `${quantity} is not a whole number of ${name === 'cpu' ? 'millicores' : 'bytes'}`);
        continue;
      }
      out[name] = quantity;
    }
    return out;
  }

  quantity(name: ResourceName, raw: unknown, path: string): string | undefined {
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      return this.fail(path, `must be a quantity such as ${name === 'cpu' ? '"250m"' : '"512Mi"'}, not ${describeType(raw)}`);
    }
    try {
      if (name === 'cpu') parseCpu(raw);
      else parseMemory(raw);
    } catch (err) {
      if (err instanceof QuantityError) return this.fail(path, err.message);
      throw err;
    }
    return typeof raw === 'number' ? String(raw) : raw.trim();
  }
}
