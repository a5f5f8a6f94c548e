/**
 * The audit page in a real browser (`npm run test:audit-page`; not part of `npm test`: it starts
 * headless Chromium a few times, 5-10 s): the sample report (scripts/audit-sample.ts) at a phone's
 * 320 and 390 px, a tablet's 800, a laptop's 1280 and a desktop's 1920. The page never scrolls
 * sideways; from the laptop up the table fits without scrolling in its box; the phone gets the
 * stacked cards, the laptop the table's rows; the charts are never drawn wider than 400 px or
 * narrower than 250. Skipped, saying so, where Debian's chromium is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderAuditHtml, STACK_BELOW_PX } from '../../../src/report/audit/audit-html.ts';
import { sampleAudit } from '../../../scripts/audit-sample.ts';
import { findChromium, renderedDom } from '../../../scripts/headless-chromium.ts';
import { layoutProbe, measuredLayout } from '../../../scripts/layout-probe.ts';

const chromium = findChromium();

test('the audit page at 320, 390, 800, 1280 and 1920 px', { skip: chromium ? false : 'chromium is not installed (apt-get install -y chromium)' }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-audit-layout-'));
  try {
    const html = renderAuditHtml(sampleAudit());
    for (const width of [320, 390, 800, 1280, 1920]) {
      const probe = join(dir, `probe-${width}.html`);
      await writeFile(probe, layoutProbe(html, width));
      const layout = measuredLayout(await renderedDom(probe, Math.max(width, 500) + 40));
      const at = `${width} px: ${JSON.stringify(layout)}`;
      assert.equal(layout.clientWidth, width, at);
      assert.equal(layout.scrollWidth, width, `the page scrolls sideways at ${at}`);
      assert.equal(layout.rowDisplay, width < STACK_BELOW_PX ? 'grid' : 'table-row', at);
      if (width >= 1280) assert.equal(layout.boxOverflow, 0, `the table scrolls in its box at ${at}`);
      assert.ok(layout.tableWidth <= width, at);
      assert.ok(layout.chartWidth >= 250 && layout.chartWidth <= 400, at);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
