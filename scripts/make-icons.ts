/**
 * Draws the web app's home-screen icons (hosting/public/icons/) from the brand mark in
 * hosting/public/favicon.svg, with the browser the tests use: a plain icon at 192, 512 and 180
 * (Apple's touch icon) pixels, and a maskable one whose mark sits inside the safe zone, the
 * middle 80 %, so a launcher may crop it to any shape. Run after changing the mark:
 * `node scripts/make-icons.ts`; the PNGs are committed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from './lib/chromium.ts';
import { paths } from './lib/paths.ts';

const mark = readFileSync(join(paths.hosting, 'public', 'favicon.svg'), 'utf8');
/** The mark's check on a full-bleed square, scaled to 80 % so it stays inside the safe zone. */
const maskable = mark
  .replace(/<rect [^>]*\/>/, '<rect width="32" height="32" fill="#1d4ed8"/>')
  .replace(/<path /, '<path transform="translate(16 16) scale(0.8) translate(-16 -16)" ');

const icons = [
  { file: 'icon-192.png', size: 192, svg: mark },
  { file: 'icon-512.png', size: 512, svg: mark },
  { file: 'apple-touch-icon.png', size: 180, svg: maskable },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const executablePath = findChromium();
if (!executablePath) throw new Error('Chromium not found: install it or set CHROMIUM_PATH');
const browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
const out = join(paths.hosting, 'public', 'icons');
mkdirSync(out, { recursive: true });
for (const { file, size, svg } of icons) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
  await page.screenshot({ path: join(out, file), omitBackground: true });
  await page.close();
  console.log(`  ${file} (${size}×${size})`);
}
await browser.close();
