/**
 * Number parsing straight from bytes (no string per field): the hot path of the trace reader.
 * Plain decimals (`123`, `-0.25`, `1700000000`) with at most 15 significant digits are parsed as
 * integer / 10^k, which is correctly rounded (both are exact doubles; one division rounds once), so
 * the result equals `Number(text)`. Anything else (exponents, long fractions) goes through
 * `Number` on a decoded string; empty fields, hex and `Infinity` are rejected (NaN).
 */

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** The number in `bytes[start, end)`, or NaN when it is not one. */
export function parseDecimal(bytes: Uint8Array, start: number, end: number): number {
  if (start >= end) return NaN;
  let i = start;
  let negative = false;
  if (bytes[i] === 0x2d /* - */) {
    negative = true;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let sawPoint = false;
  let sawDigit = false;
  for (; i < end; i++) {
    const c = bytes[i] ?? 0;
    if (c >= 0x30 && c <= 0x39) {
      sawDigit = true;
      if (mantissa === 0 && c === 0x30 && !sawPoint) continue; // leading zeros
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      if (sawPoint) fractionDigits++;
    } else if (c === 0x2e /* . */ && !sawPoint) {
      sawPoint = true;
    } else {
      return slowParse(bytes, start, end);
    }
  }
  if (!sawDigit) return NaN;
  if (digits > 15) return slowParse(bytes, start, end);
  // Zeros after the point before the first significant digit still count as fraction digits.
  const value = fractionDigits === 0 ? mantissa : mantissa / (POW10[fractionDigits] ?? 10 ** fractionDigits);
  return negative ? -value : value;
}

function slowParse(bytes: Uint8Array, start: number, end: number): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return NaN;
}
