// Screenshot one page of the built app: node tests/e2e/screenshot.mjs /extract out.png [toggle-theme]
import { serveDist, launchBrowser } from './harness.mjs';
const [, , route = '/', out = '/tmp/shot.png', theme = ''] = process.argv;
const s = await serveDist(); const b = await launchBrowser();
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
p.on('console', m => { if (m.type() === 'error') console.log('console error:', m.text()); });
await p.goto(s.url + route); await p.waitForSelector('[data-testid="page"]');
if (theme) { await p.getByTestId('theme-toggle').click(); }
await p.waitForTimeout(300);
await p.screenshot({ path: out, fullPage: true }); await b.close(); await s.close();
