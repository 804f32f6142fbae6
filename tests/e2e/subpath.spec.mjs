// The app served under a sub-path, as on a static host (`https://user.github.io/verifyfast/`):
// built with `trunk build --release --public-url /verifyfast/` into target/dist-subpath (scripts/test
// does this), served with everything outside /verifyfast/ answering 404.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useApp, ROOT } from './harness.mjs';

const dir = path.join(ROOT, 'target', 'dist-subpath');
if (!fs.existsSync(path.join(dir, 'index.html'))) {
  throw new Error('no sub-path build: run `trunk build --release --public-url /verifyfast/ --dist target/dist-subpath` (scripts/test does)');
}

describe('served under /verifyfast/', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { serve: { dir, prefix: '/verifyfast/' } });

  app.it('every nav link, the favicon and the title work under the sub-path', async (page) => {
    const failed = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await app.goto('/');
    await page.getByTestId('page-audit').waitFor();
    for (const name of ['report', 'compare', 'extract', 'proof', 'runs', 'settings', 'audit']) {
      await page.getByTestId(`nav-${name}`).click();
      await page.getByTestId(`page-${name}`).waitFor();
      assert.match(new URL(page.url()).pathname, new RegExp(`^/verifyfast/${name}$`));
    }
    assert.equal(await page.title(), 'Audit · VerifyFast');
    const icon = await page.evaluate(() => fetch(document.querySelector('link[rel=icon]').href).then((r) => r.status));
    assert.equal(icon, 200);
    assert.match(await page.locator('.brand img').evaluate((img) => img.currentSrc), /\/verifyfast\/favicon\.svg$/);
    assert.equal(await page.locator('.brand img').evaluate((img) => img.naturalWidth > 0), true, 'favicon image loaded');
    assert.deepEqual(failed, []);
  });

  app.it('deep links and reloads keep the page and the query string', async (page) => {
    await app.goto('/report?case=abc&tag=x');
    await page.getByTestId('page-report').waitFor();
    await page.reload();
    await page.getByTestId('page-report').waitFor();
    assert.equal(new URL(page.url()).search, '?case=abc&tag=x');
    await page.getByTestId('nav-proof').click();
    await page.getByTestId('page-proof').waitFor();
    await page.goBack();
    await page.getByTestId('page-report').waitFor();
    assert.equal(new URL(page.url()).search, '?case=abc&tag=x');
  });

  app.it('examples load from the sub-path (Audit and Proof)', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-example').click();
    await page.waitForFunction(() => ['audit-context', 'audit-output'].every(
      (id) => document.querySelector(`[data-testid="${id}"]`)?.value?.length > 0));
    await app.goto('/proof');
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-event').waitFor();
    assert.equal(await page.locator('[role="alert"]').count(), 0);
  });
});
