/**
 * Tables that fit the terminal (`tailor recommend`'s table, the demo's pod table). The layout is
 * pure: given the columns, the cells and a width, it keeps the table whole when it fits (or when
 * no width is known: not a terminal), and otherwise, step by step until it fits: moves a notes
 * column to a line of its own under each row, uses the short headings, then drops the
 * lower-priority columns (lowest `dropOrder` first; equal ones together), and last abbreviates
 * the cells that have a short form (a recommendation without its bounds). Columns without a
 * `dropOrder` always stay, so a very narrow terminal may still get a table wider than itself.
 * Worked example: `tailor recommend`'s 236-column table at 100 columns moves its notes under their
 * rows, uses the short headings and drops its pods and diff columns.
 */
import Table from 'cli-table3';

/** One column and how it may give way. */
export interface FitColumn {
  head: string;
  /** A narrower heading, used once the table does not fit. */
  shortHead?: string;
  /** Dropped when the table is still too wide, lowest first (equal ones together); undefined: always kept. */
  dropOrder?: number;
  /** When the table is too wide, shown on a line of its own under its row (across the table) instead of as a column. */
  ownLine?: boolean;
  /** The last resort, when the table is still too wide without the droppable columns: a shorter form of each cell, under this heading. */
  abbreviated?: { head: string; cell: (text: string) => string };
}

/** How the table is drawn. */
export interface TableLayout {
  /** The columns shown, in order: their index among the columns given, the heading used, and whether the cells are abbreviated. */
  columns: Array<{ index: number; head: string; abbreviated?: true }>;
  /** The column shown on a line of its own under each row, if one was moved there. */
  ownLine?: number;
  /** The table's width in characters, borders included (the own lines wrap inside it). */
  width: number;
}

/** The widest line of a cell. */
function cellWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map((l) => [...l].length));
}

/** The width of a cli-table3 table (one space of padding each side) whose columns need `widths`: each + 2, and n + 1 borders. */
export function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w + 2, 0) + widths.length + 1;
}

/** Lays the table out for `maxWidth` columns (undefined: the full table). */
export function layoutTable(columns: readonly FitColumn[], rows: readonly (readonly string[])[], maxWidth: number | undefined): TableLayout {
  const widest = (i: number, cell: (text: string) => string) => Math.max(0, ...rows.map((r) => cellWidth(cell(r[i] ?? ''))));
  const contentWidth = columns.map((_, i) => widest(i, (t) => t));
  const abbreviatedWidth = columns.map((c, i) => (c.abbreviated ? widest(i, c.abbreviated.cell) : contentWidth[i]!));
  const layout = (shown: readonly number[], short: boolean, ownLine: number | undefined, abbreviate = false): TableLayout => {
    const cols = shown.map((index) => {
      const c = columns[index]!;
      if (abbreviate && c.abbreviated) return { index, head: c.abbreviated.head, abbreviated: true as const };
      return { index, head: (short ? c.shortHead : undefined) ?? c.head };
    });
    const widths = cols.map((c) => Math.max(cellWidth(c.head), c.abbreviated ? abbreviatedWidth[c.index]! : contentWidth[c.index]!));
    return { columns: cols, ...(ownLine !== undefined ? { ownLine } : {}), width: tableWidth(widths) };
  };
  const all = columns.map((_, i) => i);
  const full = layout(all, false, undefined);
  if (maxWidth === undefined || maxWidth <= 0 || full.width <= maxWidth) return full;

  const ownLineIndex = columns.findIndex((c) => c.ownLine);
  const ownLine = ownLineIndex >= 0 ? ownLineIndex : undefined;
  let shown = all.filter((i) => i !== ownLine);
  let current = layout(shown, false, ownLine);
  if (ownLine !== undefined && current.width <= maxWidth) return current;
  current = layout(shown, true, ownLine);
  const orders = [...new Set(columns.map((c) => c.dropOrder).filter((o): o is number => o !== undefined))].sort((a, b) => a - b);
  for (const order of orders) {
    if (current.width <= maxWidth) break;
    shown = shown.filter((i) => columns[i]!.dropOrder !== order);
    current = layout(shown, true, ownLine);
  }
  return current.width <= maxWidth ? current : layout(shown, true, ownLine, true);
}

/** Breaks `text` into lines of at most `width` characters, at spaces where it can. */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(10, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    let rest = word;
    while ([...rest].length > max) {
      if (line !== '') {
        lines.push(line);
        line = '';
      }
      lines.push(rest.slice(0, max));
      rest = rest.slice(max);
    }
    if (line === '') line = rest;
    else if ([...line].length + 1 + [...rest].length <= max) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** cli-table3's characters; the demo leaves out the lines between rows. */
export type TableChars = Partial<Record<Table.CharName, string>>;

/**
 * Draws the table as laid out: the shown columns, and the own-line column's text (when not empty)
 * on a line across the table under its row, wrapped to the table's width, after `ownLinePrefix`.
 */
export function renderFittedTable(
  columns: readonly FitColumn[],
  rows: readonly (readonly string[])[],
  layout: TableLayout,
  options: { chars?: TableChars; ownLinePrefix?: string } = {},
): string {
  const table = new Table({ head: layout.columns.map((c) => c.head), ...(options.chars ? { chars: options.chars } : {}), style: { head: [], border: [] } });
  for (const row of rows) {
    table.push(layout.columns.map((c) => (c.abbreviated ? columns[c.index]!.abbreviated!.cell(row[c.index] ?? '') : (row[c.index] ?? ''))));
    const note = layout.ownLine === undefined ? '' : (row[layout.ownLine] ?? '');
    if (note !== '') table.push([{ colSpan: layout.columns.length, content: wrapText(`${options.ownLinePrefix ?? ''}${note}`, layout.width - 4).join('\n') }]);
  }
  return table.toString();
}
