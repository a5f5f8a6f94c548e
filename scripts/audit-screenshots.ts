/**
 * `npm run docs:audit-screenshots`: the pictures of the audit page in docs/audit.md. Renders the
 * sample report (scripts/audit-sample.ts) with the audit's HTML renderer, opens it in headless
 * Chromium (Debian's `chromium` package) at a laptop's 1280 px and a phone's 390 px, checks that
 * neither scrolls sideways (scripts/layout-probe.ts), and writes docs/images/audit-1280.png and audit-390.png. With `--html
 * FILE` it also keeps the page it drew.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAuditHtml } from '../src/report/audit/audit-html.ts';
import { sampleAudit } from './audit-sample.ts';
import { findChromium, renderedDom, screenshot } from './headless-chromium.ts';
import { layoutProbe, measuredLayout } from './layout-probe.ts';

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
/** Each picture: the window's width and height (tall enough for the header and the first entries). */
const SHOTS = [
  { file: 'audit-1280.png', width: 1280, height: 1500 },
  { file: 'audit-390.png', width: 390, height: 2000 },
];

async function main(): Promise<void> {
  if (!findChromium()) throw new Error('chromium is not installed: apt-get install -y chromium');
  const htmlArg = process.argv.indexOf('--html');
  const dir = await mkdtemp(join(tmpdir(), 'tailor-audit-shots-'));
  try {
    // The first workload's YAML open, to show it in the pictures.
    const html = renderAuditHtml(sampleAudit()).replace('<details class="yaml">', '<details class="yaml" open>');
    const page = join(dir, 'audit.html');
    await writeFile(page, html);
    for (const shot of SHOTS) {
      const probe = join(dir, `probe-${shot.width}.html`);
      await writeFile(probe, layoutProbe(html, shot.width));
      const layout = measuredLayout(await renderedDom(probe, Math.max(shot.width, 500) + 40));
      if (layout.scrollWidth > layout.clientWidth)
        throw new Error(`at ${shot.width} px the page scrolls sideways: ${layout.scrollWidth} px wide in a ${layout.clientWidth} px window`);
      await screenshot(page, shot.width, shot.height, join(IMAGES, shot.file));
      console.log(
        `docs/images/${shot.file}: ${shot.width}x${shot.height}; the page ${layout.scrollWidth} px wide in ${layout.clientWidth}, the table ${layout.tableWidth} px (${layout.rowDisplay === 'grid' ? 'stacked' : 'rows'}), charts ${layout.chartWidth} px`,
      );
    }
    if (htmlArg > 0 && process.argv[htmlArg + 1]) await copyFile(page, process.argv[htmlArg + 1]!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : err);
  process.exit(1);
});
