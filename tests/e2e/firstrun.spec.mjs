// The workbench as a first-time user meets it: no endpoints that do not exist, presets,
// a demo that needs no server (Report, Compare, Audit), messages in the page's words, a failed
// audit that looks failed, every result in the URL, and a phone-sized nav.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-e2e-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function settingsFor(baseUrl, extra = '') {
  return `defaults:\n  max_tokens: 2000\n  temperature: 0.1\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\n${extra}profiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

const PHASE1 = { claims: [{ id: 'C1', text: 'Revenue grew 8%' }], deductions: [{ id: 'D1', premises: ['C1'], conclusion: 'The company is growing' }] };
const PHASE2 = { factual_errors: [], reasonable_inferences: [{ target: 'C1', explanation: 'stated' }] };
const PHASE3 = { logic_errors: [] };
const SCRIPT = {
  rules: [
    { match_any: 'Do not judge correctness', reply: PHASE1 },
    { match_any: 'strict fact checker', reply: PHASE2 },
    { match_any: 'strict logic checker', reply: PHASE3 },
  ],
};

async function importSettings(page, app, text) {
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', text));
  await page.getByTestId('settings-notice').filter({ hasText: 'Imported' }).waitFor();
}

async function fillTexts(page) {
  await page.getByTestId('audit-context').fill('Revenue was 120 and grew 8% over the year.');
  await page.getByTestId('audit-output').fill('Revenue grew 8%, so the company is growing.');
}

describe('first run', () => {
  // A refused connection is logged by the browser as a console error.
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/ERR_CONNECTION_REFUSED|Failed to load resource|CORS|net::/] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('a first visit has no endpoints that do not exist: Settings says what to configure, presets fill it in', async (page) => {
    await app.goto('/settings');
    assert.equal(await page.getByTestId('settings-llm').count(), 0);
    const help = await page.getByTestId('settings-first-run').innerText();
    assert.match(help, /No model server yet/);
    assert.match(help, /base URL/);
    for (const id of ['llama-cpp', 'ollama', 'lm-studio', 'vllm', 'openai-compatible']) {
      assert.equal(await page.getByTestId(`settings-preset-${id}`).count(), 1, id);
    }
    await page.getByTestId('settings-preset-ollama').click();
    await page.getByTestId('settings-notice').filter({ hasText: /Added the LLM `ollama` and the profile `ollama`/ }).waitFor();
    assert.equal(await page.getByTestId('settings-llm').count(), 1);
    assert.equal(await page.getByTestId('settings-first-run').count(), 0);
    assert.equal(await page.locator('[data-testid="settings-llm"] input').nth(1).inputValue(), 'http://127.0.0.1:11434/v1');
    // The Audit page picks the new profile.
    await page.getByTestId('nav-audit').click();
    assert.equal(await page.getByTestId('audit-profile').inputValue(), 'ollama');
    assert.equal(await page.getByTestId('audit-no-server').count(), 0);
  });

  app.it('with no server the Audit page says so before sending anything, and offers the demo', async (page) => {
    await app.goto('/audit');
    assert.match(await page.getByTestId('audit-no-server').innerText(), /No model server is configured yet/);
    await fillTexts(page);
    await page.getByTestId('audit-run').click();
    const err = await page.getByTestId('audit-error').innerText();
    assert.match(err, /No model server is configured yet: open Settings/);
    assert.equal(await page.getByTestId('audit-phases').count(), 0);
  });

  app.it('messages name the missing field and say "paste the key in Settings", never an environment variable', async (page) => {
    await importSettings(page, app, settingsFor(mock.baseUrl, '    api_key_env: VLLM_API_KEY\n'));
    await page.getByTestId('settings-test-connection').click();
    const result = await page.getByTestId('settings-test-connection-result').innerText();
    assert.match(result, /The LLM `mock` has no key/);
    assert.match(result, /Paste the key/);
    assert.doesNotMatch(result, /VLLM_API_KEY|environment variable `/);
    await page.getByTestId('nav-audit').click();
    await fillTexts(page);
    await page.getByTestId('audit-run').click();
    const err = await page.getByTestId('audit-error').innerText();
    assert.match(err, /has no key/);
    assert.doesNotMatch(err, /VLLM_API_KEY/);
    // A cleared model is named as such.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-api-key').fill('sk-x');
    await page.getByTestId('settings-api-key').dispatchEvent('change');
    const model = page.locator('[data-testid="settings-llm"] input').nth(2);
    await model.fill('');
    await model.dispatchEvent('change');
    await page.getByTestId('settings-test-connection').click();
    assert.match(await page.getByTestId('settings-test-connection-result').innerText(), /The LLM `mock` has no model:/);
  });

  app.it('the demo band report opens from the empty Report page, marked as a demo, and survives a reload', async (page) => {
    await app.goto('/report');
    await page.getByTestId('report-empty').waitFor();
    await page.getByTestId('report-open-demo').click();
    await page.getByTestId('report-matrix').waitFor();
    assert.match(await page.getByTestId('report-demo').innerText(), /Demo: sample results/);
    await page.waitForURL(/report\?example=demo/);
    assert.match(await page.getByTestId('report-profiles').innerText(), /baseline-v3[\s\S]*cross-verify/);
    await page.reload();
    await page.getByTestId('report-matrix').waitFor();
    assert.match(await page.getByTestId('report-demo').innerText(), /Demo/);
    // Compare with… from the demo names the demo.
    assert.equal(await page.getByTestId('report-compare').getAttribute('href'), 'compare?example=demo');
    // A drilled cell and an open case of the demo stay in the URL across a reload.
    await page.getByTestId('report-cell-0-2').click();
    await page.waitForURL(/cell=bad-good/);
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    await page.getByTestId('report-case').waitFor();
    await page.waitForURL((u) => u.searchParams.get('example') === 'demo' && u.searchParams.get('cell') === 'bad-good' && u.searchParams.get('case'));
    const drilled = page.url();
    await page.reload();
    await page.getByTestId('report-case').waitFor();
    assert.equal(page.url(), drilled);
    // …and Compare with… opens the demo comparison, marked as the demo, not an error.
    await page.getByTestId('report-compare').click();
    await page.getByTestId('compare-summary').waitFor();
    assert.match(await page.getByTestId('compare-demo').innerText(), /Demo/);
    assert.equal(await page.getByTestId('compare-error').count(), 0);
  });

  app.it('the demo comparison opens from the empty Compare page; B − A reads in points', async (page) => {
    await app.goto('/compare');
    await page.getByTestId('compare-open-demo').click();
    await page.getByTestId('compare-summary').waitFor();
    assert.match(await page.getByTestId('compare-demo').innerText(), /Demo/);
    await page.waitForURL(/compare\?example=demo&a=baseline-v3&b=cross-verify/);
    assert.match(await page.getByTestId('compare-rates').innerText(), /B − A -5\.0 pt/);
    await page.reload();
    await page.getByTestId('compare-summary').waitFor();
    assert.match(await page.getByTestId('compare-demo').innerText(), /Demo/);
  });

  app.it('a recorded demo audit opens on the Audit page, marked as a demo, with no server', async (page) => {
    await app.goto('/audit?example=demo');
    await page.getByTestId('audit-score').waitFor();
    assert.equal(await page.getByTestId('audit-score').innerText(), '2');
    assert.match(await page.getByTestId('audit-demo').innerText(), /Demo: a recorded audit/);
    assert.match(await page.getByTestId('audit-output').inputValue(), /twice as fast/);
    // From the no-server notice too.
    await app.goto('/audit');
    await page.getByTestId('audit-open-demo').click();
    await page.getByTestId('audit-score').waitFor();
    await page.waitForURL(/audit\?example=demo/);
  });

  app.it('a fresh audit names its kept run in the URL: reload, Back and Forward bring the result back', async (page) => {
    await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(SCRIPT) });
    await importSettings(page, app, settingsFor(mock.baseUrl));
    await page.getByTestId('nav-audit').click();
    await fillTexts(page);
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').waitFor();
    await page.waitForURL(/audit\?run=r-[0-9a-z-]+$/);
    const url = page.url();
    await page.reload();
    await page.getByTestId('audit-score').waitFor();
    assert.equal(page.url(), url);
    await page.getByTestId('nav-runs').click();
    await page.getByTestId('run-row').first().waitFor();
    await page.goBack();
    await page.getByTestId('audit-score').waitFor();
    assert.equal(page.url(), url);
  });

  app.it('a failed audit reads once, readably, looks failed, and is kept as failed', async (page) => {
    // Nothing listens on port 9 of this machine: the connection is refused at once.
    await importSettings(page, app, settingsFor('http://127.0.0.1:9/v1'));
    await page.getByTestId('nav-audit').click();
    await fillTexts(page);
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-failure-cause').waitFor({ timeout: 60_000 });
    const box = await page.locator('[data-testid="audit-error"]').first().innerText();
    assert.doesNotMatch(box, /fetchWhat to do/, 'cause and fix run together');
    assert.match(box, /What to do:/);
    // The long server hint is said once on the page.
    const body = await page.locator('[data-testid="page-audit"]').innerText();
    const hint = body.match(/Fixes: Ollama/g) ?? [];
    assert.equal(hint.length, 1, `the CORS hint is shown ${hint.length} times`);
    assert.doesNotMatch(body, /0 ms · 0 tokens/);
    await page.waitForURL(/audit\?run=r-/);
    await page.getByTestId('nav-runs').click();
    await page.getByTestId('run-row').first().waitFor();
    assert.match(await page.getByTestId('run-name').first().innerText(), /^Failed · Audit/);
    // Reopened, it still looks failed.
    await page.getByTestId('run-open').first().click();
    await page.getByTestId('audit-failure-cause').waitFor();
    assert.equal(await page.getByTestId('audit-score').count(), 0);
  });
});

describe('every result has a URL', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  const results = (n) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: i + 1, profile: 'p', expected_credit_score: 1 + (i % 5), credit_score: 1 + ((i + 1) % 5) })).join('\n') + '\n';

  app.it('Report → Compare with… names the run (ra), survives a reload, and side A shows its run', async (page) => {
    await app.goto('/report');
    await page.getByTestId('report-file').setInputFiles(writeTemp('cases.jsonl', results(10)));
    await page.waitForURL(/report\?run=(r-[0-9a-z-]+)/);
    const id = new URL(page.url()).searchParams.get('run');
    await page.getByTestId('report-compare').click();
    await page.waitForURL(new RegExp(`compare\\?ra=${id}`));
    await page.getByTestId('compare-label-a').filter({ hasText: /10 results/ }).waitFor();
    assert.equal(await page.getByTestId('compare-run-a').inputValue(), id, 'side A names its kept run');
    await page.reload();
    await page.getByTestId('compare-label-a').filter({ hasText: /10 results/ }).waitFor();
    assert.equal(await page.getByTestId('compare-run-a').inputValue(), id);
  });

  app.it('two kept runs with one name differ in the Compare picker', async (page) => {
    await app.goto('/report');
    await page.getByTestId('report-file').setInputFiles(writeTemp('same.jsonl', results(6)));
    await page.waitForURL(/report\?run=/);
    await page.getByTestId('report-file').setInputFiles(writeTemp('same.jsonl', results(8)));
    await page.getByTestId('report-matrix').waitFor();
    await page.waitForFunction(() => /run=/.test(location.search) && document.querySelector('[data-testid="report-summary"], [data-testid="report-matrix"]'));
    await page.getByTestId('nav-compare').click();
    const options = page.locator('[data-testid="compare-run-a"] option');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-run-a"] option').length >= 3);
    const labels = (await options.allInnerTexts()).filter((t) => /same\.jsonl/.test(t));
    assert.equal(labels.length, 2, labels.join('\n'));
    assert.notEqual(labels[0], labels[1]);
    assert.match(labels.join('\n'), /6 results/);
    assert.match(labels.join('\n'), /8 results/);
  });
});

describe('phone', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('at 390 px every nav page is reachable through the menu', async (page) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await app.goto('/audit');
    for (const [nav, testid] of [['nav-runs', 'page-runs'], ['nav-settings', 'page-settings'], ['nav-report', 'page-report'], ['nav-proof', 'page-proof']]) {
      await page.getByTestId('nav-menu').click();
      const link = page.getByTestId(nav);
      const box = await link.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${nav} is on screen: ${JSON.stringify(box)}`);
      await link.click();
      await page.getByTestId(testid).waitFor();
      assert.equal(await page.getByTestId(nav).isVisible(), false, 'the menu closes');
    }
    const [sw, vw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= vw, `page is ${sw} px wide in a ${vw} px viewport`);
  });

  app.it('at 390 px the Runs table scrolls in its box and its actions are reachable', async (page) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await app.goto('/report');
    const line = JSON.stringify({ id: 1, profile: 'p', expected_credit_score: 5, credit_score: 5 });
    await page.getByTestId('report-file').setInputFiles(writeTemp('phone.jsonl', line + '\n'));
    await page.waitForURL(/report\?run=/);
    await app.goto('/runs');
    await page.getByTestId('run-row').first().waitFor();
    const [sw, vw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= vw, `page is ${sw} px wide in a ${vw} px viewport`);
    const exportButton = page.getByTestId('run-export').first();
    await exportButton.scrollIntoViewIfNeeded();
    const box = await exportButton.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the actions are on screen: ${JSON.stringify(box)}`);
  });

  app.it('icons are inline SVG, not font glyphs', async (page) => {
    await app.goto('/proof?example=seed');
    await page.getByTestId('proof-step-label').waitFor({ timeout: 30_000 });
    for (const id of ['proof-first', 'proof-prev', 'proof-next', 'proof-last']) {
      const b = page.getByTestId(id);
      assert.equal(await b.locator('svg').count(), 1, id);
      assert.doesNotMatch(await b.innerText(), /[⏮⏭◀▶]/, id);
    }
    assert.equal(await page.getByTestId('theme-toggle').locator('svg').count(), 1);
    assert.doesNotMatch(await page.getByTestId('theme-toggle').innerText(), /[☀☾]/);
  });
});

describe('proof page keeps what it shows true', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  async function pickSeed(page) {
    await app.goto('/proof');
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-step-label').filter({ hasText: '0 / 9' }).waitFor({ timeout: 30_000 });
  }

  app.it('actions typed into the form are kept across a reload (the URL step exists)', async (page) => {
    await pickSeed(page);
    await page.getByTestId('proof-form-latex').fill('a > 0');
    await page.getByTestId('proof-form-submit').click();
    await page.getByTestId('proof-form-result').waitFor();
    const label = await page.getByTestId('proof-step-label').innerText();
    const [at, total] = label.split(' / ').map(Number);
    assert.ok(total > 9, `the action added events: ${label}`);
    await page.waitForURL(new RegExp(`step=${at}`));
    await page.reload();
    await page.getByTestId('proof-step-label').filter({ hasText: `${at} / ${total}` }).waitFor({ timeout: 30_000 });
  });

  app.it('a bad file leaves the old example neither on screen nor in the URL; events count from 1', async (page) => {
    await pickSeed(page);
    await page.waitForURL(/example=seed/);
    await page.getByTestId('proof-file').setInputFiles(writeTemp('bad.json', '[{"eventType":"NOPE","source":"s","content":{}}]'));
    const err = await page.getByTestId('proof-error').innerText();
    assert.match(err, /bad\.json: event log: event 1: unknown eventType `NOPE`/);
    await page.waitForFunction(() => !/example=/.test(location.search));
    assert.equal(await page.getByTestId('proof-example').inputValue(), '');
    assert.equal(await page.locator('[data-testid="proof-dag"] .dag-node').count(), 0);
  });

  app.it('Fit brings the whole derivation graph into view', async (page) => {
    await pickSeed(page);
    await page.keyboard.press('End');
    await page.getByTestId('proof-step-label').filter({ hasText: '9 / 9' }).waitFor();
    await page.getByTestId('proof-dag-fit').click();
    const [frame, box] = await page.evaluate(() => {
      const wrap = document.querySelector('.proof-dag-wrap');
      const f = document.querySelector('[data-testid="proof-dag"]').getBoundingClientRect();
      return [[f.width, f.height], [wrap.clientWidth, wrap.clientHeight]];
    });
    assert.ok(frame[0] <= box[0] + 1 && frame[1] <= box[1] + 1, `graph ${frame} in box ${box}`);
  });
});
