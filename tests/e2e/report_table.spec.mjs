// Report case table: every case paged (no 200 cap), sort by any column with aria-sort,
// search, j/k/Enter/Esc, the side panel with next/previous and focus, the open case in the
// URL (reload returns to it, Back closes it), and "Open in Audit" re-running a case against
// the scripted server.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-table-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** 450 cases c1…c450 of one profile; judged = 1 + (i mod 5), expected = 5 − (i mod 5). */
function bigLines() {
  const lines = [];
  for (let i = 1; i <= 450; i++) {
    lines.push(JSON.stringify({
      id: `c${i}`, profile: 'p', tag: i % 2 ? 'alpha' : 'beta',
      expected_credit_score: 5 - (i % 5), credit_score: 1 + (i % 5),
      context_input: `context of case ${i}`, model_output: `output of case ${i}`,
    }));
  }
  return lines;
}
const bigRun = () => writeTemp('big.jsonl', bigLines().join('\n') + '\n');

/** The lines as the browser batch's kept results, opened with `report?run=batch` (kept across reloads). */
async function openAsBatch(app, page) {
  await app.goto('/report');
  await page.evaluate((text) => localStorage.setItem('verifyfast.batch.results', text), bigLines().join('\n'));
  // The Audit page's batch moves results an older version kept in local storage into a run.
  await app.goto('/audit');
  await page.waitForFunction(() => localStorage.getItem('verifyfast.batch.results') === null);
  await app.goto('/report?run=batch');
  await page.getByTestId('report-matrix').waitFor();
}

async function upload(page, file) {
  await page.getByTestId('report-file').setInputFiles(file);
  await page.getByTestId('report-matrix').waitFor({ timeout: 60_000 });
}

const ids = async (page) => (await page.getByTestId('report-case-row').locator('td:nth-child(2)').allInnerTexts()).map((s) => s.trim());
const activeId = (page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('report case table', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('pages past 200 cases, sorts by any column, searches', async (page) => {
    await app.goto('/report');
    await upload(page, bigRun());
    const count = page.getByTestId('report-cases-count');
    await count.filter({ hasText: 'all cases — 450 case(s)' }).waitFor();
    assert.equal(await page.getByTestId('report-page').innerText(), 'page 1 of 5');
    assert.equal(await page.getByTestId('report-case-row').count(), 100);
    for (let i = 0; i < 4; i++) await page.getByTestId('report-page-next').click();
    assert.equal(await page.getByTestId('report-page').innerText(), 'page 5 of 5');
    const last = await ids(page);
    assert.equal(last.length, 50);
    assert.equal(last.at(-1), 'c450');
    assert.equal(await page.getByTestId('report-page-next').isDisabled(), true);

    // Sort by id: natural order (c2 before c10), then descending; aria-sort follows.
    await page.getByTestId('report-sort-id').click();
    await page.getByTestId('report-page').filter({ hasText: 'page 1 of 5' }).waitFor();
    assert.deepEqual((await ids(page)).slice(0, 3), ['c1', 'c2', 'c3']);
    const th = page.locator('th', { has: page.getByTestId('report-sort-id') });
    assert.equal(await th.getAttribute('aria-sort'), 'ascending');
    await page.getByTestId('report-sort-id').click();
    assert.equal(await th.getAttribute('aria-sort'), 'descending');
    assert.deepEqual((await ids(page)).slice(0, 3), ['c450', 'c449', 'c448']);
    await page.getByTestId('report-sort-judged').click();
    assert.equal(await th.getAttribute('aria-sort'), 'none');
    const judged = await page.getByTestId('report-case-row').locator('td:nth-child(7)').allInnerTexts();
    // 90 cases are judged 1: the first page is those, then the first ten judged 2.
    assert.deepEqual([...new Set(judged.map((s) => s.trim()))], ['1', '2']);
    assert.equal(judged.filter((s) => s.trim() === '1').length, 90);

    await page.getByTestId('report-search').fill('c45');
    await count.filter({ hasText: 'search "c45" — 2 case(s)' }).waitFor();
    assert.deepEqual((await ids(page)).sort(), ['c45', 'c450']);
    assert.equal(await page.getByTestId('report-page').innerText(), 'page 1 of 1');
    assert.match(page.url(), /filter=c45/);
  });

  app.it('j/k/Enter/Esc, side panel next/previous, focus, reload and Back', async (page) => {
    await openAsBatch(app, page);
    await page.locator('h1').click();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    const selected = page.locator('tr.selected');
    assert.equal(await selected.count(), 1);
    assert.match(await selected.innerText(), /\bc1\b/);
    assert.equal(await activeId(page), 'report-row-0');
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('report-case');
    await panel.filter({ hasText: 'Case c1 (line 1)' }).waitFor();
    assert.equal(await activeId(page), 'report-case', 'opening moves the focus to the panel');
    assert.match(await panel.innerText(), /context of case 1\b/);
    assert.match(page.url(), /case=c1&line=1$/);
    // The panel is beside the list, in the viewport.
    const box = await panel.boundingBox();
    assert.ok(box.y < 900 && box.x > 500, `panel at ${JSON.stringify(box)}`);

    await page.getByTestId('report-case-next').click();
    await panel.filter({ hasText: 'Case c2 (line 2)' }).waitFor();
    assert.equal(await page.getByTestId('report-case-place').innerText(), '2 of 450');
    await page.getByTestId('report-case-prev').click();
    await panel.filter({ hasText: 'Case c1 (line 1)' }).waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.id === 'report-row-0');
    assert.doesNotMatch(page.url(), /case=/);

    // Next across a page boundary shows the next page.
    await page.getByTestId('report-page-next').click();
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    await panel.filter({ hasText: 'Case c101' }).waitFor();
    await page.getByTestId('report-case-prev').click();
    await panel.filter({ hasText: 'Case c100 (line 100)' }).waitFor();
    assert.equal(await page.getByTestId('report-page').innerText(), 'page 1 of 5');

    // Reload returns to the open case; Back closes it.
    const url = page.url();
    // `run=batch` (the newest batch run) becomes that run's own id.
    assert.match(url, /report\?run=r-[0-9a-z-]+&case=c100&line=100$/);
    await page.reload();
    await panel.filter({ hasText: 'Case c100 (line 100)' }).waitFor();
    assert.equal(page.url(), url);
    await page.goBack();
    await panel.waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /case=/);
  });
});

const PHASE1 = { claims: [{ id: 'C1', text: '录取率35%' }], deductions: [] };
const PHASE2 = { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: '录取率35%', explanation: '原文没有' }], reasonable_inferences: [] };
const PHASE3 = { logic_errors: [] };
const SCRIPT = { rules: [
  { match_any: 'Do not judge correctness', reply: PHASE1 },
  { match_any: 'strict fact checker', reply: PHASE2 },
  { match_any: 'strict logic checker', reply: PHASE3 },
] };

function settingsFor(baseUrl) {
  return `llms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n  mock-two:\n    run: mock\n    verify: mock\n`;
}

describe('open in audit', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('fills Audit with the case and re-runs it once under the chosen profile', async (page) => {
    await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(SCRIPT) });
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settingsFor(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '2 profiles' }).waitFor();
    await page.getByTestId('nav-report').click();
    const line = { id: 'k1', profile: 'old', expected_credit_score: 2, credit_score: 5,
      context_input: '该校2023年本科招生4200人。', model_output: '该校录取率35%。' };
    await upload(page, writeTemp('one.jsonl', JSON.stringify(line) + '\n'));
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    await page.getByTestId('report-open-audit').waitFor();
    await page.getByTestId('report-open-audit-profile').selectOption('mock-two');
    const chats = async () => (await (await fetch(`${mock.url}/__log`)).json()).requests
      .filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST').length;
    const before = await chats();
    await page.getByTestId('report-open-audit-go').click();
    await page.getByTestId('page-audit').waitFor();
    assert.equal(await page.getByTestId('audit-context').inputValue(), line.context_input);
    assert.equal(await page.getByTestId('audit-output').inputValue(), line.model_output);
    assert.equal(await page.getByTestId('audit-profile').inputValue(), 'mock-two');
    await page.getByTestId('audit-score').waitFor();
    assert.equal(await page.getByTestId('audit-score').innerText(), '2');
    assert.equal(await chats() - before, 3);
    // A reload does not run it again (the request was one-shot): the URL names the kept run,
    // so the reload shows that result.
    await page.waitForURL(/audit\?run=r-/);
    await page.reload();
    await page.getByTestId('audit-kept-run').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await chats() - before, 3);
    assert.equal(await page.getByTestId('audit-score').innerText(), '2');
  });
});
