/**
 * The measured figures of docs/architecture.md, computed from an import graph of `src/`: size
 * (folders, files, lines, the biggest folder and the largest file), the arrows between the
 * top-level folders, those that run back up the layer order, and the import circles between files.
 */
import type { ImportGraph } from './import-graph.ts';
import { importCircles } from './import-circles.ts';

/** A folder or file and its lines. */
export interface Sized {
  path: string;
  lines: number;
}

/** The figures of one tree. */
export interface SourceFigures {
  /** Top-level folders that hold at least one file. */
  folders: number;
  files: number;
  lines: number;
  biggestFolder: Sized;
  largestFile: Sized;
  /** Pairs of top-level folders, `from -> to`, with at least one import from a file of one to a file of the other. */
  arrows: string[];
  /** The arrows that run against the layer order (to a layer above the importing folder's). */
  backUp: string[];
  /** Groups of files that import each other round a loop. */
  circles: string[][];
}

/** The top-level folder of a file path (`controller/start-run.ts` -> `controller`); files at the top are in `.`. */
function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? '.' : file.slice(0, slash);
}

/** The largest entry of `sizes` (the first by name among equals). */
function largest(sizes: Map<string, number>): Sized {
  const [path, lines] = [...sizes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ['', 0];
  return { path, lines };
}

/**
 * The figures of `graph`. `layers` lists the top-level folders, top layer first (as
 * eslint.layers.config.js does): an arrow back up goes from a folder to one in an earlier layer.
 */
export function sourceFigures(graph: ImportGraph, layers: readonly (readonly string[])[]): SourceFigures {
  const folderLines = new Map<string, number>();
  for (const [file, lines] of graph.lines) folderLines.set(folderOf(file), (folderLines.get(folderOf(file)) ?? 0) + lines);
  const arrows = new Set<string>();
  for (const [file, targets] of graph.imports) {
    for (const target of targets) if (folderOf(file) !== folderOf(target)) arrows.add(`${folderOf(file)} -> ${folderOf(target)}`);
  }
  const layerOf = (folder: string) => layers.findIndex((layer) => layer.includes(folder));
  const backUp = [...arrows].filter((arrow) => {
    const [from, to] = arrow.split(' -> ') as [string, string];
    return layerOf(from) >= 0 && layerOf(to) >= 0 && layerOf(to) < layerOf(from);
  });
  return {
    folders: folderLines.size,
    files: graph.lines.size,
    lines: [...graph.lines.values()].reduce((sum, n) => sum + n, 0),
    biggestFolder: largest(folderLines),
    largestFile: largest(graph.lines),
    arrows: [...arrows].sort(),
    backUp: backUp.sort(),
    circles: importCircles(graph.imports),
  };
}
