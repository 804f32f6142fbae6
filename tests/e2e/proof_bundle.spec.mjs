// The Proof page is its own wasm bundle (src/ui/proof/host.rs loads it): other pages never
// download it, the Proof page loads it once and mounts/unmounts it as the user comes and goes
// (its step and keys work again on return), and a bundle that cannot be loaded is said so.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './harness.mjs';

const isBundle = (url) => /\/verifyfast-proof-[0-9a-f]{16}(_bg\.wasm|\.js)$/.test(new URL(url).pathname);

describe('Proof page bundle', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('only the Proof page loads it, once; leaving unmounts it and coming back restores the step', async (page) => {
    const fetched = [];
    page.on('request', (r) => { if (isBundle(r.url())) fetched.push(new URL(r.url()).pathname); });
    await app.goto('/audit');
    await page.getByTestId('nav-report').click();
    await page.getByTestId('nav-extract').click();
    assert.deepEqual(fetched, [], 'no page but Proof fetches the Proof bundle');

    await page.getByTestId('nav-proof').click();
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-step-label').filter({ hasText: '0 / 9' }).waitFor();
    await page.getByTestId('proof-next').click();
    await page.getByTestId('proof-next').click();
    await page.getByTestId('proof-step-label').filter({ hasText: '2 / 9' }).waitFor();
    assert.equal(fetched.filter((p) => p.endsWith('_bg.wasm')).length, 1);

    await page.getByTestId('nav-audit').click();
    await page.getByTestId('page').getByRole('heading', { name: 'Quick audit' }).waitFor();
    assert.equal(await page.getByTestId('proof-host').count(), 0, 'the Proof page is unmounted');
    assert.equal(await page.getByTestId('proof-step-label').count(), 0);

    await page.getByTestId('nav-proof').click();
    await page.getByTestId('proof-step-label').filter({ hasText: '2 / 9' }).waitFor();
    // The keys are the remounted page's own (the unmounted one's listeners are gone: one step per press).
    await page.getByTestId('proof-step').focus();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('proof-step-label').filter({ hasText: '3 / 9' }).waitFor();
    assert.equal(fetched.filter((p) => p.endsWith('_bg.wasm')).length, 1, 'the bundle is not fetched again');
    assert.equal(await page.getByTestId('proof-host-status').count(), 0, 'no loading note once mounted');
  });

  app.it('a deep link to a step loads the bundle once, started by index.html, and lands on that step', async (page) => {
    const fetched = [];
    page.on('request', (r) => { if (isBundle(r.url())) fetched.push(new URL(r.url()).pathname); });
    await page.addInitScript(() => {
      Object.defineProperty(window, 'verifyfastProofStarted', {
        configurable: true,
        set(v) {
          window.proofStartedByIndex = true;
          Object.defineProperty(window, 'verifyfastProofStarted', { value: v, configurable: true, writable: true });
        },
      });
    });
    await app.goto('/proof?example=seed&step=5');
    await page.getByTestId('proof-step-label').filter({ hasText: '5 / 9' }).waitFor();
    assert.equal(fetched.filter((p) => p.endsWith('_bg.wasm')).length, 1, 'one fetch of the wasm');
    assert.equal(fetched.filter((p) => p.endsWith('.js')).length, 1, 'one fetch of its JavaScript');
    // index.html started the bundle and the app took it (it removes the handle when it does).
    assert.equal(await page.evaluate(() => window.proofStartedByIndex), true);
    assert.equal(await page.evaluate(() => Object.getOwnPropertyDescriptor(window, 'verifyfastProofStarted')), undefined);
    await page.getByTestId('proof-next').click();
    await page.getByTestId('proof-step-label').filter({ hasText: '6 / 9' }).waitFor();
  });
});

describe('Proof page bundle that cannot be loaded', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, {
    allowConsoleErrors: [/Failed to load resource/, /dynamically imported module/],
  });

  app.it('says so and how to retry; the rest of the app keeps working', async (page) => {
    await page.route((url) => isBundle(url.href), (route) => route.fulfill({ status: 404, body: 'not here' }));
    await app.goto('/proof');
    const status = page.getByTestId('proof-host-status');
    await status.filter({ hasText: 'could not be loaded' }).waitFor();
    assert.match(await status.innerText(), /verifyfast-proof-[0-9a-f]{16}\.js.*Reload the page to try again/s);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('page').getByRole('heading', { name: 'Quick audit' }).waitFor();
  });
});
