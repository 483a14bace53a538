// Renders media/icon.png (128x128, the Marketplace icon) from media/icon.svg with Chromium
// through playwright-core: the line chart drawn light on a dark rounded square.
// Usage: node scripts/icon.mjs   (Chromium from CHROMIUM, else /usr/bin/chromium)
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('media/icon.svg', 'utf8').replace('stroke="currentColor"', 'stroke="#ffffff"');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="icon" style="width:128px;height:128px;border-radius:24px;display:flex;align-items:center;justify-content:center;
  background:linear-gradient(135deg,#ff9d00 0%,#e8590c 55%,#6d28d9 100%)">
  <div style="width:96px;height:96px">${svg.replace('width="24" height="24"', 'width="96" height="96"')}</div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  const png = await page.locator('#icon').screenshot({ omitBackground: true });
  writeFileSync('media/icon.png', png);
  console.log(`media/icon.png: ${png.length} bytes`);
} finally {
  await browser.close();
}
