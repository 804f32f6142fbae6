// The browser half of the workbench loop: batch → retry failed (good results untouched) → Open the band
// report shows that run → drill into a cell and a case → reload lands on the same view →
// Back closes the drill-down; drafts survive navigation and reload; long tokens wrap; the
// Report page says when a file is empty or not JSONL.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, ROOT } from './harness.mjs';

const EXAMPLES = path.join(ROOT, 'public', 'examples');

function settingsFor(baseUrl) {
  return `defaults:\n  max_tokens: 2000\n  temperature: 0.1\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

function writeTemp(name, data) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-e2e-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

const PHASE1 = { claims: [{ id: 'C1', text: '985高校录取率达到35%' }], deductions: [] };
const PHASE2 = { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: '985高校录取率达到35%', explanation: '原文没有录取率' }], reasonable_inferences: [] };
const PHASE3 = { logic_errors: [] };

// `failFirst`: that many Phase 1 calls answer 400 (not retried), so those cases could not be audited.
function script(failFirst = 0, claim = null) {
  const p1 = claim ? { claims: [{ id: 'C1', text: claim }], deductions: [] } : PHASE1;
  const rules = [
    { match_any: 'Do not judge correctness', reply: p1 },
    { match_any: 'strict fact checker', reply: PHASE2 },
    { match_any: 'strict logic checker', reply: PHASE3 },
  ];
  if (failFirst) rules.unshift({ match_any: 'Do not judge correctness', fault: '400', times: failFirst });
  return { rules };
}

async function configure(app, page, mock, s) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(s) });
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settingsFor(mock.baseUrl)));
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLMs, 1 profiles' }).waitFor();
}

// The newest batch run's result lines, read from the run store (IndexedDB `verifyfast`).
const stored = (page) => page.evaluate(() => new Promise((ok, no) => {
  const open = indexedDB.open('verifyfast');
  open.onerror = () => no(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction(['runs', 'results']);
    const heads = tx.objectStore('runs').getAll();
    heads.onsuccess = () => {
      const batch = heads.result.map((t) => JSON.parse(t)).filter((h) => h.kind === 'batch')
        .sort((a, b) => b.created_ms - a.created_ms)[0];
      if (!batch) { ok([]); return; }
      const r = tx.objectStore('results').get(batch.id);
      r.onsuccess = () => ok((r.result || '').split('\n').filter(Boolean));
    };
  };
}));

describe('workbench: batch → retry failed → report → URL', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('retries only failed pairs, opens the run on Report, and the drill-down has a URL', async (page) => {
    await configure(app, page, mock, script(3));
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('batch-upload').setInputFiles(path.join(EXAMPLES, 'cases.jsonl'));
    await page.getByTestId('batch-cases').filter({ hasText: '12 cases' }).waitFor();
    await page.getByTestId('batch-profile').check();
    await page.getByTestId('batch-concurrency').fill('1');
    await page.getByTestId('batch-concurrency').dispatchEvent('change');
    await page.getByTestId('batch-run').click();
    await page.getByTestId('batch-notice').filter({ hasText: /Done: 9 audited, 3 could not be audited, 0 already done/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('batch-retry').filter({ hasText: 'Retry failed (3)' }).waitFor();
    const before = await stored(page);
    assert.equal(before.length, 12);
    const good = before.filter((l) => JSON.parse(l).credit_score != null);
    assert.equal(good.length, 9);

    // Running again explains what to do instead of "all done".
    await page.getByTestId('batch-run').click();
    assert.match(await page.getByTestId('batch-notice').innerText(), /3 could not be audited: use Retry failed/);

    // Retry failed: only the 3 failed pairs are re-run; the 9 good lines are byte for byte the same.
    await fetch(`${mock.url}/__log`, { method: 'DELETE' });
    await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(script(0)) });
    await page.getByTestId('batch-retry').click();
    await page.getByTestId('batch-notice').filter({ hasText: /Retry done: 3 failed pairs retried: 3 scored, 0 could not be audited again/ }).waitFor({ timeout: 60_000 });
    const log = await (await fetch(`${mock.url}/__log`)).json();
    const phase1Calls = log.requests.filter((r) => JSON.stringify(r.body || '').includes('Do not judge correctness') && !JSON.stringify(r.body || '').includes('not statements of model_output')).length;
    assert.equal(phase1Calls, 3, 'only the failed pairs were audited again');
    const afterRetry = await stored(page);
    assert.equal(afterRetry.length, 12);
    for (const line of good) assert.ok(afterRetry.includes(line), 'a good line was touched');
    assert.ok(afterRetry.every((l) => JSON.parse(l).credit_score != null));
    await page.getByTestId('batch-retry').filter({ hasText: 'Retry failed (0)' }).waitFor();

    // Clear asks first; dismissing keeps everything.
    page.once('dialog', (d) => d.dismiss());
    await page.getByTestId('batch-clear').click();
    assert.equal((await stored(page)).length, 12);

    // Batch → Report: the report opens with this run's 12 results.
    await page.getByTestId('batch-open-report').click();
    await page.getByTestId('page-report').waitFor();
    await page.getByTestId('report-matrix').waitFor();
    assert.match(page.url(), /report\?run=r-[0-9a-z]+-[0-9a-z]+/);
    assert.match(await page.getByTestId('report-cross-band-rate').innerText(), /%/);
    const total = await page.locator('[data-testid="report-matrix"] strong').allInnerTexts();
    assert.equal(total.map(Number).reduce((a, b) => a + b, 0), 12);

    // Drill into the cross-band cell BAD expected, judged GOOD, and open its first case (the
    // scripted claims that are not in a case's output are dropped, so its errors do not count).
    await page.getByTestId('report-cell-0-2').click();
    await page.waitForURL(/cell=bad-good/);
    const firstRow = page.getByTestId('report-case-row').first();
    const caseId = await firstRow.locator('button').innerText();
    await firstRow.locator('button').click();
    await page.getByTestId('report-case').waitFor();
    await page.waitForURL(new RegExp(`case=${caseId}`));
    // The detail is scrolled into view, not left far below it.
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="report-case"]').getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });

    // Reload lands on the same view.
    await page.reload();
    await page.getByTestId('report-case').waitFor();
    assert.match(await page.getByTestId('report-case').innerText(), new RegExp(`Case ${caseId}`));
    assert.match(await page.getByTestId('report-cases-count').innerText(), /BAD|bad|expected/i);

    // Back closes the case and stays in the app, on the cell.
    await page.goBack();
    await page.getByTestId('report-case').waitFor({ state: 'detached' });
    assert.match(page.url(), /report\?run=r-[0-9a-z]+-[0-9a-z]+&cell=bad-good$/);
    await page.getByTestId('report-matrix').waitFor();

    // Navigating away and back keeps the run.
    await page.getByTestId('nav-extract').click();
    await page.getByTestId('nav-report').click();
    await page.getByTestId('report-matrix').waitFor();

    // Clear, confirmed, deletes.
    await page.getByTestId('nav-audit').click();
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('batch-clear').click();
    await page.getByTestId('batch-count').filter({ hasText: '0 results stored' }).waitFor();
  });

  app.it('a 300-character token does not widen the page', async (page) => {
    const token = 'A'.repeat(300);
    await configure(app, page, mock, script(0, `see https://example.com/${token}`));
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill(`context ${token}`);
    await page.getByTestId('audit-output').fill(`output https://example.com/${token}`);
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    const [sw, vw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= vw, `page is ${sw} px wide in a ${vw} px viewport`);
  });
});

describe('workbench: drafts, phone header, report messages', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('typed text survives navigation and reload', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-context').fill('my context draft');
    await page.getByTestId('audit-output').fill('my output draft');
    await page.waitForTimeout(600); // the debounced write
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('nav-audit').click();
    assert.equal(await page.getByTestId('audit-context').inputValue(), 'my context draft');
    await page.reload();
    await page.getByTestId('page-audit').waitFor();
    assert.equal(await page.getByTestId('audit-output').inputValue(), 'my output draft');

    await page.getByTestId('nav-extract').click();
    await page.getByTestId('extract-text').fill('The answer is 41.');
    await page.getByTestId('extract-question').fill('what is it?');
    await page.waitForTimeout(600);
    await page.reload();
    await page.getByTestId('page-extract').waitFor();
    assert.equal(await page.getByTestId('extract-text').inputValue(), 'The answer is 41.');
    assert.equal(await page.getByTestId('extract-question').inputValue(), 'what is it?');

    // Settings: strategy YAML typed but not applied comes back after a reload.
    await page.getByTestId('nav-settings').click();
    await page.locator('summary', { hasText: 'Strategy as YAML' }).click();
    const yaml = page.getByTestId('settings-strategy-yaml');
    await yaml.fill('# my unapplied edit\nthreshold_fact: 2\n');
    await page.waitForTimeout(600);
    await page.reload();
    await page.locator('summary', { hasText: 'Strategy as YAML' }).click();
    assert.match(await yaml.inputValue(), /my unapplied edit/);

    // Proof: the loaded example and its step come back, and are in the URL.
    await page.getByTestId('nav-proof').click();
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-step-label').waitFor();
    for (let i = 0; i < 5; i++) await page.getByTestId('proof-next').click();
    await page.waitForURL(/proof\?example=seed&step=5/);
    await page.getByTestId('nav-report').click();
    await page.goBack();
    await page.getByTestId('proof-step-label').filter({ hasText: /^5 \// }).waitFor();
    await page.reload();
    await page.getByTestId('proof-step-label').filter({ hasText: /^5 \// }).waitFor();
    // A shared link opens that step.
    await app.goto('/proof?example=seed&step=3');
    await page.getByTestId('proof-step-label').filter({ hasText: /^3 \// }).waitFor();
  });

  app.it('the phone header is one row', async (page) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await app.goto('/audit');
    const h = await page.locator('header.topbar').evaluate((e) => e.getBoundingClientRect().height);
    assert.ok(h <= 56, `header is ${h} px tall`);
    const [sw, vw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= vw, `page is ${sw} px wide in a ${vw} px viewport`);
  });

  app.it('an empty file and a non-JSONL file say so; a bad line is named once', async (page) => {
    await app.goto('/report');
    await page.getByTestId('report-file').setInputFiles(writeTemp('empty.jsonl', ''));
    await page.getByTestId('report-error').filter({ hasText: /this file has no results/i }).waitFor();
    assert.equal(await page.getByTestId('report-matrix').count(), 0);
    await page.getByTestId('report-file').setInputFiles(writeTemp('data.csv', 'a,b,c\n1,2,3\n4,5,6\n'));
    await page.getByTestId('report-error').filter({ hasText: /this is not JSONL/i }).waitFor();
    assert.equal(await page.getByTestId('report-bad-lines').count(), 0);
    const good = '{"id":1,"expected_credit_score":5,"credit_score":4}\n';
    const bytes = Buffer.concat([Buffer.from(good), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from(good.replace('1', '2'))]);
    await page.getByTestId('report-file').setInputFiles(writeTemp('utf.jsonl', bytes));
    const bad = await page.getByTestId('report-bad-lines').innerText();
    assert.match(bad, /line 2: not valid UTF-8/);
    assert.doesNotMatch(bad, /line 2: line 2/);
    // A picked file is kept as a run (docs/runs.md): coming back shows it again, by its id.
    await page.getByTestId('report-bad-lines').waitFor();
    await page.waitForURL(/report\?run=r-[0-9a-z]+-[0-9a-z]+/);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('nav-report').click();
    await page.waitForURL(/report\?run=r-[0-9a-z]+-[0-9a-z]+/);
    assert.match(await page.getByTestId('report-bad-lines').innerText(), /line 2: not valid UTF-8/);
  });
});
