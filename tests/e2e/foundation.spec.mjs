// The app shell: mounting, routing, theme, and safe LaTeX rendering.
import test, { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './harness.mjs';

describe('app shell', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('mounts with nav, title and versioned footer', async (page) => {
    await app.goto('/');
    assert.equal(await page.title(), 'Audit · VerifyFast');
    assert.equal(await page.locator('.nav a').count(), 7);
    assert.match(await page.getByTestId('footer').innerText(), /VerifyFast v\d+\.\d+\.\d+/);
  });

  for (const [name, path] of [['audit', '/audit'], ['report', '/report'], ['compare', '/compare'], ['extract', '/extract'], ['proof', '/proof'], ['runs', '/runs'], ['settings', '/settings']]) {
    app.it(`nav link routes to the ${name} page`, async (page) => {
      await app.goto('/');
      await page.getByTestId(`nav-${name}`).click();
      await page.waitForURL(`**${path}`);
      await page.getByTestId(`page-${name}`).waitFor();
      assert.equal(await page.getByTestId(`nav-${name}`).getAttribute('aria-current'), 'page');
    });
  }

  app.it('in-page links route without a reload, and back/forward follow the history', async (page) => {
    await app.goto('/audit');
    // A marker on window survives client-side routing, not a reload.
    await page.evaluate(() => { window.__sameDocument = true; });
    // With no batch run yet, "Open the band report" opens nothing; the nav links route.
    assert.equal(await page.getByTestId('batch-open-report').getAttribute('href'), null);
    await page.getByTestId('nav-report').click();
    await page.getByTestId('page-report').waitFor();
    assert.match(page.url(), /\/report$/);
    assert.equal(await page.getByTestId('nav-report').getAttribute('aria-current'), 'page');
    assert.equal(await page.getByTestId('nav-audit').getAttribute('aria-current'), null);
    await page.goBack();
    await page.getByTestId('page-audit').waitFor();
    await page.goForward();
    await page.getByTestId('page-report').waitFor();
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'no full page load');
    await app.goto('/no-such-page');
    await page.getByTestId('page-not-found').waitFor();
  });

  app.it('deep links load the right page, and the tab title names it', async (page) => {
    await app.goto('/proof');
    await page.getByTestId('page-proof').waitFor();
    assert.equal(await page.title(), 'Proof · VerifyFast');
    await page.getByTestId('nav-report').click();
    await page.getByTestId('page-report').waitFor();
    assert.equal(await page.title(), 'Report · VerifyFast');
    await app.goto('/index.html');
    await page.getByTestId('page-audit').waitFor();
    await app.goto('/no-such-page');
    assert.equal(await page.title(), 'Page not found · VerifyFast');
  });

  app.it('theme toggle switches and remembers the theme', async (page) => {
    await app.goto('/');
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await bg();
    await page.getByTestId('theme-toggle').click();
    const first = await theme();
    assert.ok(first === 'dark' || first === 'light');
    assert.notEqual(await bg(), before);
    await page.reload();
    await page.waitForSelector('[data-testid="page"]');
    assert.equal(await theme(), first);
    await page.getByTestId('theme-toggle').click();
    assert.notEqual(await theme(), first);
  });
});

describe('MathText', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('renders LaTeX with KaTeX while HTML in the same text stays inert', async (page) => {
    await app.goto('/extract');
    await page.evaluate(() => { window.__xss = 0; window.alert = () => { window.__xss += 1; }; });
    const input = page.getByTestId('math-preview-input');
    await input.fill('<img src=x onerror=alert(1)> and $\\frac{a}{b}$ <b>bold?</b>');
    const out = page.getByTestId('math-preview-output');
    await out.locator('.katex .mfrac').waitFor();
    assert.equal(await out.locator('img').count(), 0, 'no <img> element may be created from text');
    assert.equal(await out.locator('b').count(), 0);
    const text = await out.innerText();
    assert.ok(text.includes('<img src=x onerror=alert(1)>'), `the HTML is shown as text: ${text}`);
    assert.equal(await page.evaluate(() => window.__xss), 0);
  });

  app.it('hostile LaTeX stays contained', async (page) => {
    await app.goto('/extract');
    await page.getByTestId('math-preview-input').fill('$\\href{javascript:alert(1)}{x}$ $\\def\\a{\\a\\a}\\a$ $\\rule{9999em}{9999em}$');
    const out = page.getByTestId('math-preview-output');
    await out.locator('.katex').first().waitFor();
    assert.equal(await out.locator('a[href^="javascript"]').count(), 0);
    const box = await out.boundingBox();
    assert.ok(box.height < 2000, `maxSize keeps the output small, got ${box.height}px`);
  });

  app.it('non-ASCII text next to math delimiters renders (the wasm used to panic and take the page down)', async (page) => {
    await app.goto('/extract');
    const input = page.getByTestId('math-preview-input');
    const out = page.getByTestId('math-preview-output');
    await input.fill('$√2$ and $$α$$ and \\(β\\); 答案是 $x=5$。然后 $ 未闭合 \\[ ñ\n\nThe price is $5 and ñ');
    await out.locator('.katex').nth(3).waitFor();
    assert.equal(await out.locator('.katex').count(), 4, await out.innerHTML());
    const text = await out.innerText();
    assert.ok(text.includes('The price is $5 and ñ'), text);
    assert.ok(text.includes('然后 $ 未闭合 \\[ ñ'), text);
    // The app is still alive: navigation works after the input.
    await page.getByTestId('nav-proof').click();
    await page.getByTestId('page-proof').waitFor();
  });
});
