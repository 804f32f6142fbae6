// Screenshots of what a first-time user meets: the first-run Settings, the demo
// Report, Compare and Audit, each at desktop light, desktop dark and a 390 px phone.
// node tests/e2e/first_run_shots.mjs [OUT_DIR]   (after a build; default /tmp/first-run-shots)
import fs from 'node:fs';
import { serveDist, launchBrowser } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/first-run-shots';
fs.mkdirSync(out, { recursive: true });
const pages = [
  ['settings', '/settings', 'page-settings'],
  ['report', '/report?example=demo', 'report-matrix'],
  ['compare', '/compare?example=demo', 'compare-summary'],
  ['audit', '/audit?example=demo', 'audit-score'],
];
const looks = [
  ['light', { width: 1280, height: 900 }, 'light'],
  ['dark', { width: 1280, height: 900 }, 'dark'],
  ['phone', { width: 390, height: 844 }, 'light'],
];
const s = await serveDist(); const b = await launchBrowser();
for (const [look, viewport, scheme] of looks) {
  for (const [name, route, ready] of pages) {
    const ctx = await b.newContext({ viewport, colorScheme: scheme });
    const p = await ctx.newPage();
    p.on('console', (m) => { if (m.type() === 'error') console.log(`${name}/${look} console error:`, m.text()); });
    await p.goto(s.url + route);
    await p.getByTestId(ready).waitFor({ timeout: 30_000 });
    await p.waitForTimeout(400);
    await p.screenshot({ path: `${out}/${name}-${look}.png`, fullPage: look !== 'phone' });
    await ctx.close();
  }
}
await b.close(); await s.close();
console.log(`screenshots in ${out}`);
