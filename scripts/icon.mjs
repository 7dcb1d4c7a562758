// `node scripts/icon.mjs`: renders media/icon.svg into the 128×128 media/icon.png the Marketplace shows (it takes no SVG).
// Run it after changing the SVG and commit both; headless Chromium does the drawing, as in the UI tests.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const media = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'media');
const svg = readFileSync(path.join(media, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(media, 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
