// Benchmark (printed, not a timed assertion): a first-time user's cold load of the Audit page to
// interactive over an emulated 10 Mbit/s link with 40 ms round trips (Chromium's network emulation
// through a CDP session), with the files gzipped as a static host serves them and an empty cache.
// "Interactive" = the Audit page is mounted and its context field takes typed text.
// Writes target/coldload.txt; scripts/test prints it in its summary.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launchBrowser, ROOT } from './harness.mjs';

describe('cold load benchmark', () => {
  let server; let browser;
  before(async () => { server = await serveDist({ gzip: true }); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); await server?.close(); });

  it('Audit page to interactive at 10 Mbit/s, 40 ms RTT', async () => {
    const runs = [];
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8,
      });
      let transferred = 0;
      cdp.on('Network.loadingFinished', (e) => { transferred += e.encodedDataLength; });
      await page.goto(`${server.url}/audit`, { waitUntil: 'commit' });
      const field = page.getByTestId('audit-context');
      await field.waitFor({ timeout: 30_000 });
      await field.fill('typed');
      const ms = await page.evaluate(() => performance.now());
      assert.equal(await field.inputValue(), 'typed');
      runs.push(ms);
      bytes = transferred;
      await context.close();
    }
    runs.sort((a, b) => a - b);
    const line = `cold load: Audit page interactive in ${Math.round(runs[1])} ms median of 3 (${runs.map(Math.round).join(', ')} ms; 10 Mbit/s, 40 ms RTT, ${Math.round(bytes / 1024)} KB transferred; aim ≤ 1500 ms)`;
    console.log(line);
    fs.mkdirSync(path.join(ROOT, 'target'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'target', 'coldload.txt'), line + '\n');
  });
});
