import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadLinks, headingAnchors, markdownFiles, markdownLinks } from './markdown-links.ts';

/** The README is the front door: it must stay short enough to read on a few screens. */
const README_MAX_BYTES = 20_000;

test('every relative link in README.md, docs/**/*.md, traces/ and the packages\' pages resolves to a file, and its #anchor to a heading', () => {
  const files = ['README.md', ...markdownFiles('docs'), ...markdownFiles('traces'), ...readdirSync('packages').map((name) => join('packages', name, 'README.md')).filter((path) => existsSync(path))];
  assert.ok(files.length > 10, files.join(', '));
  const dead = deadLinks('.', files);
  assert.deepEqual(dead.map((d) => `${d.file}:${d.line}: ${d.target}: ${d.reason}`), []);
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
