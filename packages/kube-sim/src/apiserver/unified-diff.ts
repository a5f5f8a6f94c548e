/**
 * A unified diff of two texts, one hunk around the changed lines (three lines of context), as
 * the real API server appends to a forbidden pod update: `@@ -95,7 +95,7 @@` then the lines.
 */

/** The diff of `a` and `b` by lines; empty when equal. */
export function unifiedDiff(a: string, b: string, context = 3): string {
  const x = a.split('\n');
  const y = b.split('\n');
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start += 1;
  if (start === x.length && start === y.length) return '';
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX -= 1;
    endY -= 1;
  }
  const from = Math.max(0, start - context);
  const toX = Math.min(x.length, endX + context);
  const toY = Math.min(y.length, endY + context);
  const lines = [
    `@@ -${from + 1},${toX - from} +${from + 1},${toY - from} @@`,
    ...x.slice(from, start).map((l) => ` ${l}`),
    ...x.slice(start, endX).map((l) => `-${l}`),
    ...y.slice(start, endY).map((l) => `+${l}`),
    ...x.slice(endX, toX).map((l) => ` ${l}`),
  ];
  return `${lines.join('\n')}\n`;
}
