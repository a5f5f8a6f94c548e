/**
 * Debian's Chromium, headless, for the audit page's pictures (scripts/audit-screenshots.ts) and its
 * layout check (test/report/audit/audit-page-layout.check.ts): a screenshot of a page at a window
 * size, and the page's own measurements at that size (what a script in the page wrote into its
 * DOM, read back with --dump-dom). Each run gets a fresh profile in a temporary folder, removed
 * afterwards, and no network beyond the file it opens.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where Debian's chromium package puts the browser. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The browser's path, or undefined when it is not installed (`apt-get install -y chromium`). */
export function findChromium(): string | undefined {
  const fromEnv = process.env['CHROMIUM'];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
];

async function runChromium(args: string[]): Promise<string> {
  const chromium = findChromium();
  if (!chromium) throw new Error('chromium is not installed (apt-get install -y chromium)');
  const profile = await mkdtemp(join(tmpdir(), 'tailor-chromium-'));
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(chromium, [...FLAGS, `--user-data-dir=${profile}`, ...args], { timeout: 120_000, maxBuffer: 64 * 2 ** 20 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`chromium ${args.join(' ')} failed: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, { cause: err }));
        else resolve(stdout);
      });
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** Saves a PNG of `htmlFile` as a window of `width` x `height` px shows it. */
export async function screenshot(htmlFile: string, width: number, height: number, pngFile: string): Promise<void> {
  await runChromium([`--window-size=${width},${height}`, `--screenshot=${pngFile}`, pathToFileURL(htmlFile).href]);
}

/** The DOM of `htmlFile` after its scripts ran in a window `width` px wide. */
export async function renderedDom(htmlFile: string, width: number, height = 900): Promise<string> {
  return runChromium([`--window-size=${width},${height}`, '--virtual-time-budget=2000', '--dump-dom', pathToFileURL(htmlFile).href]);
}
