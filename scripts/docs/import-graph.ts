/**
 * The TypeScript files under one folder and which of them import which, read from the import and
 * export statements (type-only ones and `import()` calls included) with TypeScript's own
 * pre-processor. Only relative imports that name a file of the folder count: packages
 * (`kube-basics`, `node:fs`) are not files of it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** Files (paths relative to the folder, with `/`) with their line counts, and the imports between them. */
export interface ImportGraph {
  /** Lines of each file, as `wc -l` counts them (newline characters). */
  lines: Map<string, number>;
  /** For each file, the files of the graph it imports. */
  imports: Map<string, Set<string>>;
}

/** The `.ts` files under `dir`, recursively, relative to it with `/`, sorted. */
function tsFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true })
    .flatMap((entry) => {
      const path = under === '' ? entry.name : `${under}/${entry.name}`;
      if (entry.isDirectory()) return tsFiles(dir, path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    })
    .sort();
}

/** The file of `known` that the relative specifier `spec` of `from` names, if any. */
function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => known.has(c));
}

/** The import graph of the `.ts` files under `dir` (a path from the working directory or absolute). */
export function importGraph(dir: string): ImportGraph {
  const files = tsFiles(dir);
  const known = new Set(files);
  const lines = new Map<string, number>();
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    lines.set(file, text.split('\n').length - 1);
    const specs = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    imports.set(file, new Set(specs.flatMap((spec) => resolveImport(file, spec, known) ?? [])));
  }
  return { lines, imports };
}
