/**
 * Paths of the repository named in the code of Markdown pages (`src/report/fit-table.ts` in a code
 * span, `bash test/conformance/run.sh` in a code block) must exist, as links must: a file that
 * moved leaves the pages that name it wrong. A path counts when it starts with one of the
 * repository's folders (REPO_FOLDERS); examples and patterns (`*`, `<name>`, `{a,b}`, `...`,
 * `NNNN`) are not checked, nor are paths outside the repository (`../shared/x`, `/var/cache/x`). A
 * page names a path from the repository's root or from its own folder (a package's README).
 * History that names a path which is gone is written without backticks; a path of another
 * repository is written with that repository in front (`k8s.io/kubernetes/test/images/agnhost`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { markdownCode } from './markdown-links.ts';

/** The folders of the repository whose paths are checked. */
export const REPO_FOLDERS = ['.ci', 'bench', 'bin', 'charts', 'dev', 'docs', 'manifests', 'packages', 'scripts', 'src', 'test', 'traces'];

/** A path named in a page's code that does not exist. */
export interface MissingPath {
  file: string;
  line: number;
  path: string;
}

const REPO_PATH = new RegExp(`^(?:\\./)?((?:${REPO_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[^\\s]*)$`);
const EXAMPLE = /[*?<>{}[\]$…]|\.\.\.|NNNN/;

/** The repository paths named in `code` (one code span or code-block line), as written. */
export function pathsInCode(code: string): string[] {
  return code
    .split(/[\s=]+/)
    .map((token) =>
      token
        .replace(/^["'(`[]+/, '')
        .replace(/["'),;:.`\]]+$/, '')
        .replace(/(?::\d+)+:?$/, ''),
    )
    .flatMap((token) => {
      const path = REPO_PATH.exec(token)?.[1];
      return path === undefined || EXAMPLE.test(path) ? [] : [path];
    });
}

/** The paths named in the code of `files` (relative to `root`) that exist neither from `root` nor from the page's folder. */
export function missingCodePaths(root: string, files: readonly string[]): MissingPath[] {
  return files.flatMap((file) =>
    markdownCode(readFileSync(join(root, file), 'utf8')).flatMap(({ line, code }) =>
      pathsInCode(code)
        .filter((path) => !existsSync(join(root, path)) && !existsSync(join(root, dirname(file), path)))
        .map((path) => ({ file, line, path })),
    ),
  );
}
