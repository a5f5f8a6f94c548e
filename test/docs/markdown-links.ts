/**
 * Finds dead relative links in Markdown files: a link whose file does not exist, or whose `#anchor`
 * names no heading of the Markdown file it points to (anchors made as GitHub makes them, with
 * github-slugger). Links inside code blocks and code spans are not links; links with a scheme
 * (https:, mailto:) are not checked. Also reads a page's code (code spans and code blocks), where
 * code-paths.ts looks for paths of the repository.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';

/** One link as written, and the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** A link that does not resolve, and why. */
export interface DeadLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

const FENCE = /^\s*(```|~~~)/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
// [text](target) or ![alt](target), with an optional "title"; the text may hold one level of [...].
const INLINE_LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;

/** The lines of `text` with their line numbers and whether they are inside a fenced code block (the fences left out). */
function linesAndFences(text: string): { line: number; text: string; fenced: boolean }[] {
  const out: { line: number; text: string; fenced: boolean }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence) {
      if (opening === fence) fence = undefined;
      else out.push({ line: i + 1, text: line, fenced: true });
      return;
    }
    if (opening) {
      fence = opening;
      return;
    }
    out.push({ line: i + 1, text: line, fenced: false });
  });
  return out;
}

/** The lines of `text` outside fenced code blocks, with their line numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  return linesAndFences(text).filter((l) => !l.fenced);
}

/** The code of `text`: each code span's content, and each line of a fenced code block, with its line number. */
export function markdownCode(text: string): { line: number; code: string }[] {
  return linesAndFences(text).flatMap(({ line, text: t, fenced }) =>
    fenced ? [{ line, code: t }] : [...t.matchAll(CODE_SPAN)].map((m) => ({ line, code: m[0].slice(m[1]!.length, -m[1]!.length) })),
  );
}

/** The inline links and images of `text`, outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  return proseLines(text).flatMap(({ line, text: prose }) => [...prose.replace(CODE_SPAN, '').matchAll(INLINE_LINK)].map((m) => ({ target: m[1]!, line })));
}

/** The anchors GitHub gives the headings of `text` (duplicates get -1, -2, ...). */
export function headingAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const { text: prose } of proseLines(text)) {
    const heading = HEADING.exec(prose)?.[2];
    if (heading === undefined) continue;
    const plain = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1'); // a link in a heading counts by its text
    anchors.add(slugger.slug(plain));
  }
  return anchors;
}

/** Markdown files under `dir`, recursively, as paths joined to it. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
    .sort();
}

/** Every relative link of `files` (paths relative to `root`) that does not resolve inside `root`. */
export function deadLinks(root: string, files: readonly string[]): DeadLink[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    if (!anchorsOf.has(path)) anchorsOf.set(path, headingAnchors(readFileSync(path, 'utf8')));
    return anchorsOf.get(path)!;
  };
  const dead: DeadLink[] = [];
  for (const file of files) {
    const from = resolve(root, file);
    for (const { target, line } of markdownLinks(readFileSync(from, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const to = pathPart === '' ? from : resolve(dirname(from), pathPart);
      const fail = (reason: string) => dead.push({ file, line, target, reason });
      const inside = relative(resolve(root), to);
      if (inside.startsWith(`..${sep}`) || inside === '..') fail('points outside the repository');
      else if (!existsSync(to)) fail(`no such file: ${inside}`);
      else if (anchor !== undefined && to.endsWith('.md') && !anchors(to).has(anchor.toLowerCase())) fail(`no heading #${anchor} in ${inside}`);
    }
  }
  return dead;
}
