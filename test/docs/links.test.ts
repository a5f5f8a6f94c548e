import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadLinks, headingAnchors, markdownCode, markdownFiles, markdownLinks } from './markdown-links.ts';
import { missingCodePaths, pathsInCode } from './code-paths.ts';

/** The README is the front door: it must stay short enough to read on a few screens. */
const README_MAX_BYTES = 20_000;

/** The pages checked: README.md, docs/**, traces/ and the packages' READMEs. */
function pages(): string[] {
  const files = [
    'README.md',
    ...markdownFiles('docs'),
    ...markdownFiles('traces'),
    ...readdirSync('packages')
      .map((name) => join('packages', name, 'README.md'))
      .filter((path) => existsSync(path)),
  ];
  assert.ok(files.length > 10, files.join(', '));
  return files;
}

test("every relative link in README.md, docs/**/*.md, traces/ and the packages' pages resolves to a file, and its #anchor to a heading", () => {
  const dead = deadLinks('.', pages());
  assert.deepEqual(
    dead.map((d) => `${d.file}:${d.line}: ${d.target}: ${d.reason}`),
    [],
  );
});

test('every path of the repository named in code on those pages exists (src/..., test/..., scripts/...)', () => {
  const missing = missingCodePaths('.', pages());
  assert.deepEqual(
    missing.map((m) => `${m.file}:${m.line}: ${m.path}`),
    [],
    'a file moved: name it where it is now (git show -M --stat $(git log --format=%h --diff-filter=D -1 -- <old path>) shows where it went); history that names a gone path is written without backticks',
  );
});

test(`README.md stays a front door of at most ${README_MAX_BYTES} bytes`, () => {
  const size = statSync('README.md').size;
  assert.ok(size <= README_MAX_BYTES, `README.md is ${size} bytes; move details to a page under docs/ and link it`);
});

test('links: inline links and images outside code; anchors as GitHub makes them', () => {
  const text = [
    '# Title',
    'See [a](a.md), ![pic](images/p.png "title") and [b](b.md#some-part) or [`code` in text](c.md).',
    'Not links: `[x](inline-code.md)` and',
    '```sh',
    '[y](fenced.md)',
    '## Not a heading',
    '```',
    '## The executor (`executor.ts`) and `tailor run --components updater`',
    '## Title',
  ].join('\n');
  assert.deepEqual(markdownLinks(text), [
    { target: 'a.md', line: 2 },
    { target: 'images/p.png', line: 2 },
    { target: 'b.md#some-part', line: 2 },
    { target: 'c.md', line: 2 },
  ]);
  assert.deepEqual([...headingAnchors(text)], ['title', 'the-executor-executorts-and-tailor-run---components-updater', 'title-1']);
});

test('a missing file, a missing heading and a path out of the repository are dead; the rest are not', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'tailor-links-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'docs', 'images'), { recursive: true });
  await writeFile(join(root, 'docs', 'images', 'p.png'), '');
  await writeFile(join(root, 'docs', 'page.md'), '# Page\n\n## Part one\n\n[back](../README.md#top)\n');
  await writeFile(
    join(root, 'README.md'),
    [
      '# Top',
      '[ok](docs/page.md#part-one) [ok](docs/images/p.png) [ok](#top) [ok](https://example.com/x.md) [ok](docs/)',
      '[dead](docs/missing.md) [dead](docs/page.md#part-two) [dead](#nowhere) [dead](../outside.md)',
    ].join('\n'),
  );
  const dead = deadLinks(root, ['README.md', 'docs/page.md']);
  assert.deepEqual(
    dead.map((d) => [d.file, d.line, d.target]),
    [
      ['README.md', 3, 'docs/missing.md'],
      ['README.md', 3, 'docs/page.md#part-two'],
      ['README.md', 3, '#nowhere'],
      ['README.md', 3, '../outside.md'],
    ],
  );
  assert.match(dead[1]!.reason, /no heading #part-two in docs\/page\.md/);
});

test('code: spans and fenced lines; paths: repository folders only, examples and outside paths left out', () => {
  const text = ['Run `bash test/conformance/run.sh` or', '```sh', 'node --import tsx scripts/x.ts --out=docs/y.md', '```', 'not code: src/prose.ts'].join('\n');
  assert.deepEqual(markdownCode(text), [
    { line: 1, code: 'bash test/conformance/run.sh' },
    { line: 3, code: 'node --import tsx scripts/x.ts --out=docs/y.md' },
  ]);
  assert.deepEqual(pathsInCode('node --import tsx scripts/x.ts --out=docs/y.md'), ['scripts/x.ts', 'docs/y.md']);
  assert.deepEqual(pathsInCode('ENTRYPOINT ["node", "bin/tailor.mjs"]'), ['bin/tailor.mjs']);
  assert.deepEqual(pathsInCode('./src/a.ts:12:3, (test/b.test.ts).'), ['src/a.ts', 'test/b.test.ts']);
  assert.deepEqual(
    pathsInCode(
      'src/*/ test/<name>.test.ts docs/decisions/NNNN-title.md src/{a,b}.ts src/… src/.../x.ts ../shared/x /var/cache/tailor dist/tailor.mjs k8s.io/kubernetes/test/images/agnhost src',
    ),
    [],
  );
});

test("a missing path is reported with its page and line; a path from the page's own folder counts", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'tailor-code-paths-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'src', 'report'), { recursive: true });
  await mkdir(join(root, 'packages', 'sim', 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'report', 'fit-table.ts'), '');
  await writeFile(join(root, 'packages', 'sim', 'src', 'own.ts'), '');
  await writeFile(join(root, 'README.md'), '# Top\n`src/report/fit-table.ts` and `src/report/`\n`src/report/gone.ts`, src/prose-only.ts\n');
  await writeFile(join(root, 'packages', 'sim', 'README.md'), '`src/own.ts` and `src/report/fit-table.ts`, `src/other.ts`\n');
  assert.deepEqual(missingCodePaths(root, ['README.md', 'packages/sim/README.md']), [
    { file: 'README.md', line: 3, path: 'src/report/gone.ts' },
    { file: 'packages/sim/README.md', line: 1, path: 'src/other.ts' },
  ]);
});
