// Runs: an audit and a batch against the scripted server become runs kept
// in IndexedDB and listed on Runs; rename survives a reload; delete asks first; export then
// import round-trips (a new id, never an overwrite; no API key in the file); a batch run
// opens on Report by its id after a reload; a full store (quota shrunk through the DevTools
// protocol) says so and the audit and batch keep their results on the page; results an older
// version kept in local storage are moved into a run once; the table of 53 imported runs sorts
// by any column, searches, pages 50 at a time, and a reload lands on the same view.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, ROOT } from './harness.mjs';

const EXAMPLES = path.join(ROOT, 'public', 'examples');
const SECRET = 'sk-e2e-run-secret-7731';

function settingsFor(baseUrl) {
  return `defaults:\n  max_tokens: 2000\n  temperature: 0.1\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\n    api_key: "${SECRET}"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

function writeTemp(name, data) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-e2e-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

const SCRIPT = {
  rules: [
    { match_any: 'Do not judge correctness', reply: { claims: [{ id: 'C1', text: '985高校录取率达到35%' }], deductions: [] } },
    { match_any: 'strict fact checker', reply: { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: '985高校录取率达到35%', explanation: '原文没有录取率' }], reasonable_inferences: [] } },
    { match_any: 'strict logic checker', reply: { logic_errors: [] } },
  ],
};

async function configure(app, page, mock) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(SCRIPT) });
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settingsFor(mock.baseUrl)));
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLMs, 1 profiles' }).waitFor();
}

const rows = (page) => page.getByTestId('run-row');

/** What the Audit page's report shows: score, band, totals, claims, findings, phase chips. */
async function auditView(page) {
  await page.getByTestId('audit-report').waitFor();
  const texts = (id) => page.getByTestId(id).allInnerTexts();
  return {
    score: await page.getByTestId('audit-score').innerText(),
    band: await page.getByTestId('audit-band').innerText(),
    totals: await page.getByTestId('audit-totals').innerText(),
    claims: await texts('audit-claim'),
    findings: await texts('audit-finding'),
    numbers: await texts('audit-numbers'),
    phases: await texts('audit-phases'),
  };
}

describe('runs: kept, listed, renamed, deleted, exported, imported, opened', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('an audit becomes a run: listed, renamed across a reload, exported without keys, imported, deleted', async (page) => {
    await configure(app, page, mock);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('2023年全国高考报名人数1291万人。');
    await page.getByTestId('audit-output').fill('985高校录取率达到35%。');
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    await page.getByTestId('audit-kept').filter({ hasText: 'Kept as a run' }).waitFor();
    // What the fresh audit showed, to compare with the kept one when it is opened again.
    const fresh = await auditView(page);
    assert.equal(fresh.score, '2');
    assert.equal(fresh.band, 'BAD');
    assert.deepEqual(fresh.claims, ['C1 985高校录取率达到35%']);
    assert.match(fresh.findings[0], /High\s+unsupported\s+C1\s+985高校录取率达到35%[\s\S]*原文没有录取率/);
    assert.equal(await page.getByTestId('audit-kept-run').count(), 0, 'a fresh audit is not a kept run');

    await page.getByTestId('nav-runs').click();
    await page.getByTestId('page-runs').waitFor();
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 1);
    const row = rows(page).first();
    assert.equal(await row.getAttribute('data-kind'), 'audit');
    assert.equal(await row.getByTestId('run-count').innerText(), '1');
    assert.match(await row.getByTestId('run-name').innerText(), /^Audit · 985高校录取率达到35%。 · mock-full$/);
    assert.match(await row.innerText(), /mock-full/);
    assert.match(await page.getByTestId('runs-storage').innerText(), /used/);
    const id = await row.getAttribute('data-run-id');
    assert.match(id, /^r-[0-9a-z]+-[0-9a-z]+$/);

    // Open shows that audit on the Audit page in the same view as when it ran: the same score,
    // band, claims, findings, phases and texts, with a note saying which kept run it is.
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('something else typed meanwhile');
    await page.getByTestId('nav-runs').click();
    await rows(page).first().getByTestId('run-open').click();
    await page.waitForURL(new RegExp(`/audit\\?run=${id}$`));
    await page.getByTestId('audit-kept-run').waitFor();
    const checkKept = async () => {
      assert.deepEqual(await auditView(page), fresh);
      assert.match(await page.getByTestId('audit-kept-from').innerText(),
        /^This is kept run Audit · 985高校录取率达到35%。 · mock-full from .+, audited under profile mock-full\. The texts, score and findings below are the stored ones\. Run audit runs it again/);
      assert.equal(await page.getByTestId('audit-kept-missing').count(), 0, 'nothing is missing from a whole run');
      assert.equal(await page.getByTestId('audit-context').inputValue(), '2023年全国高考报名人数1291万人。');
      assert.equal(await page.getByTestId('audit-output').inputValue(), '985高校录取率达到35%。');
      assert.equal(await page.getByTestId('audit-profile').inputValue(), 'mock-full');
    };
    await checkKept();
    // A reload lands on the same view.
    await page.reload();
    await page.getByTestId('audit-kept-run').waitFor();
    await checkKept();
    await page.goBack();
    await page.getByTestId('page-runs').waitFor();

    // Rename in place; the name survives a reload.
    await rows(page).first().getByTestId('run-rename').click();
    await page.getByTestId('run-name-input').fill('录取率 check');
    await page.getByTestId('run-name-input').press('Enter');
    await page.getByTestId('run-name').filter({ hasText: '录取率 check' }).waitFor();
    await page.reload();
    await page.getByTestId('run-name').filter({ hasText: '录取率 check' }).waitFor();

    // Export: a header line then the report; never the API key.
    const [download] = await Promise.all([page.waitForEvent('download'), rows(page).first().getByTestId('run-export').click()]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    assert.doesNotMatch(text, new RegExp(SECRET));
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[0].verifyfast_run, 1);
    assert.equal(lines[0].id, id);
    assert.equal(lines[0].name, '录取率 check');
    assert.equal(lines[0].kind, 'audit');
    assert.equal(lines[0].inputs.model_output, '985高校录取率达到35%。');
    assert.equal(lines[0].settings.llms.mock.model, 'mock-model');
    assert.equal(typeof lines[1].credit_score, 'number');

    // Import it back unchanged: the same run is kept already, so nothing is added and it says so.
    await page.getByTestId('runs-import').setInputFiles(await download.path());
    await page.getByTestId('runs-import-notice').filter({ hasText: 'is already kept as "录取率 check": nothing imported (no duplicate)' }).waitFor();
    assert.equal(await rows(page).count(), 1);
    // A copy that differs (here its end time) is another run: the id is taken, so it gets a new
    // one and the original is untouched.
    const changed = lines.map((l, i) => (i === 0 ? { ...l, finished_ms: l.finished_ms + 1 } : l));
    await page.getByTestId('runs-import').setInputFiles(writeTemp('changed.run.jsonl', changed.map((l) => JSON.stringify(l)).join('\n') + '\n'));
    await page.getByTestId('runs-import-notice').filter({ hasText: 'Imported "录取率 check" (1 results)' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
    const ids = await rows(page).evaluateAll((rs) => rs.map((r) => r.dataset.runId));
    assert.ok(ids.includes(id), 'the original is still there');
    assert.equal(new Set(ids).size, 2, 'the import got a new id');
    for (const name of await page.getByTestId('run-name').allInnerTexts()) assert.equal(name, '录取率 check');

    // A broken file says which line and why.
    const broken = writeTemp('broken.jsonl', `${text.split('\n')[0]}\n{"id": 1,\n`);
    await page.getByTestId('runs-import').setInputFiles(broken);
    assert.match(await page.getByTestId('runs-import-error').innerText(), /broken\.jsonl: line 2: not JSON/);

    // Delete asks first: dismissing keeps the run, accepting deletes it (also after a reload).
    page.once('dialog', (d) => d.dismiss());
    await page.locator(`[data-run-id="${id}"] [data-testid="run-delete"]`).click();
    assert.equal(await rows(page).count(), 2);
    page.once('dialog', (d) => { assert.match(d.message(), /Delete the run "录取率 check"/); d.accept(); });
    await page.locator(`[data-run-id="${id}"] [data-testid="run-delete"]`).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
    await page.reload();
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 1);
    assert.notEqual(await rows(page).first().getAttribute('data-run-id'), id);

    // The deleted run's link says so instead of showing anything.
    await app.goto(`/audit?run=${id}`);
    await page.getByTestId('audit-error').waitFor();
    assert.equal(await page.getByTestId('audit-error').locator('span').innerText(),
      `Cannot show kept audit ${id}: no run ${id} is kept in this browser (deleted, or kept in another browser).`);
    assert.equal(await page.getByTestId('audit-report').count(), 0);

    // The imported copy opens as a kept audit too, and Run audit runs it again as a fresh audit.
    const copy = await (async () => { await app.goto('/runs'); await rows(page).first().waitFor(); return rows(page).first().getAttribute('data-run-id'); })();
    await app.goto(`/audit?run=${copy}`);
    await page.getByTestId('audit-kept-run').waitFor();
    assert.deepEqual(await auditView(page), fresh);
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-kept').filter({ hasText: 'Kept as a run' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('audit-kept-run').count(), 0, 'the re-run is a new audit');
    // The URL names the new run, not the copy it started from.
    await page.waitForURL(/\/audit\?run=r-/);
    assert.ok(!page.url().endsWith(copy), page.url());
    const rerun = await auditView(page);
    for (const k of ['score', 'band', 'claims', 'findings']) assert.deepEqual(rerun[k], fresh[k], k);
  });

  app.it('export → delete → import gives the same run back (name, outcome, results); the same file picked again is a new pick', async (page) => {
    await configure(app, page, mock);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('2023年全国高考报名人数1291万人。');
    await page.getByTestId('audit-output').fill('985高校录取率达到35%。');
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-kept').filter({ hasText: 'Kept as a run' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('nav-runs').click();
    await rows(page).first().waitFor();
    const before = {
      name: await rows(page).first().getByTestId('run-name').innerText(),
      outcome: await rows(page).first().getByTestId('run-outcome').innerText(),
    };
    assert.match(before.outcome, /score 2 · BAD/);
    const [download] = await Promise.all([page.waitForEvent('download'), rows(page).first().getByTestId('run-export').click()]);
    const file = await download.path();
    const exported = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // Picked while the run is kept: nothing imported, and it says so.
    await page.getByTestId('runs-import').setInputFiles(file);
    await page.getByTestId('runs-import-notice').filter({ hasText: 'no duplicate' }).waitFor();
    // Deleted: the "already kept" notice is no longer true and goes.
    page.once('dialog', (d) => d.accept());
    await rows(page).first().getByTestId('run-delete').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 0);
    assert.equal(await page.getByTestId('runs-import-notice').count(), 0, 'no stale "already kept" notice');
    // The same file picked again is imported: the same run, outcome included.
    await page.getByTestId('runs-import').setInputFiles(file);
    await page.getByTestId('runs-import-notice').filter({ hasText: /Imported ".+" \(1 results\)/ }).waitFor();
    await rows(page).first().waitFor();
    assert.equal(await rows(page).first().getByTestId('run-name').innerText(), before.name);
    assert.equal(await rows(page).first().getByTestId('run-outcome').innerText(), before.outcome);
    await page.reload();
    await rows(page).first().waitFor();
    assert.equal(await rows(page).first().getByTestId('run-outcome').innerText(), before.outcome, 'kept in the stored header');
    const [again] = await Promise.all([page.waitForEvent('download'), rows(page).first().getByTestId('run-export').click()]);
    const back = fs.readFileSync(await again.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(back.slice(1), exported.slice(1), 'the same results');
    assert.deepEqual(back[0].outcome, exported[0].outcome);
  });

  app.it('a batch run opens on Report by its id after a reload; the kind filter is in the URL', async (page) => {
    await configure(app, page, mock);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('batch-upload').setInputFiles(path.join(EXAMPLES, 'cases.jsonl'));
    await page.getByTestId('batch-cases').filter({ hasText: '12 cases' }).waitFor();
    await page.getByTestId('batch-profile').check();
    await page.getByTestId('batch-run').click();
    await page.getByTestId('batch-notice').filter({ hasText: 'Done: 12 audited' }).waitFor({ timeout: 60_000 });

    await page.getByTestId('nav-runs').click();
    await rows(page).first().waitFor();
    const row = rows(page).first();
    assert.equal(await row.getAttribute('data-kind'), 'batch');
    assert.equal(await row.getByTestId('run-count').innerText(), '12');
    const id = await row.getAttribute('data-run-id');
    // Compare starts from a kept batch: it is side A on the Compare page.
    await row.getByTestId('run-compare').click();
    await page.waitForURL(new RegExp(`/compare\\?ra=${id}$`));
    await page.waitForFunction((want) => document.querySelector('[data-testid="compare-run-a"]')?.value === want, id);
    // B is not picked yet: the page says what to do next, not a red "same lines" error.
    await page.getByTestId('compare-pick-b').waitFor();
    assert.equal(await page.getByTestId('compare-error').count(), 0);
    await page.goBack();
    await rows(page).first().waitFor();

    // The filter is in the URL and survives a reload.
    await page.getByTestId('runs-filter').selectOption('audit');
    await page.waitForURL(/runs\?kind=audit$/);
    await page.getByTestId('runs-empty').waitFor();
    await page.reload();
    await page.getByTestId('runs-empty').waitFor();
    assert.equal(await page.getByTestId('runs-filter').inputValue(), 'audit');
    await page.getByTestId('runs-filter').selectOption('batch');
    await rows(page).first().waitFor();

    // Batch → Report opens that run by id, also after a reload.
    await page.getByTestId('nav-audit').click();
    const link = page.getByTestId('batch-open-report');
    await page.waitForFunction((want) => document.querySelector('[data-testid="batch-open-report"]').getAttribute('href') === want, `report?run=${id}`);
    await link.click();
    await page.waitForURL(new RegExp(`/report\\?run=${id}$`));
    await page.reload();
    await page.getByTestId('report-matrix').waitFor();
    const total = await page.locator('[data-testid="report-matrix"] strong').allInnerTexts();
    assert.equal(total.map(Number).reduce((a, b) => a + b, 0), 12);
    assert.match(page.url(), new RegExp(`run=${id}`));
  });

  app.it('a full store says so with the figures and what to do; the audit stays on the page', async (page) => {
    await configure(app, page, mock);
    // Chromium's quota for this origin, shrunk to almost nothing (DevTools protocol).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 1 });
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('2023年全国高考报名人数1291万人。');
    await page.getByTestId('audit-output').fill('985高校录取率达到35%。');
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    const kept = page.getByTestId('audit-kept');
    await kept.filter({ hasText: 'could not be kept' }).waitFor();
    assert.match(await kept.innerText(), /storage for this site is full \(.* used\).*export old runs on the Runs page and delete them.*Download the report/);
    assert.equal(await page.getByTestId('audit-score').count(), 1, 'the report stays on the page');
    // A batch that cannot be kept says so and keeps its results on the page.
    await page.getByTestId('batch-upload').setInputFiles(path.join(EXAMPLES, 'cases.jsonl'));
    await page.getByTestId('batch-cases').filter({ hasText: '12 cases' }).waitFor();
    await page.getByTestId('batch-profile').check();
    await page.getByTestId('batch-run').click();
    await page.getByTestId('batch-notice').filter({ hasText: 'Done: 12 audited' }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('batch-error').innerText(), /This run could not be kept: the browser's storage for this site is full .*download them before leaving/);
    await page.getByTestId('batch-count').filter({ hasText: '12 results stored' }).waitFor();
    await page.getByTestId('nav-runs').click();
    await page.getByTestId('runs-empty').waitFor();
  });

  app.it('a kept audit without some parts shows what is stored and names what is not', async (page) => {
    // An older (or edited) audit run: no number check, no phase records, no models.
    const header = {
      verifyfast_run: 1, id: 'r-old-1', name: 'Old audit', kind: 'audit', created_ms: 1764000000000,
      finished_ms: 1764000001000, profiles: ['old-profile'], settings: null, strategy: null,
      inputs: { context_input: 'Revenue was 10 in 2023.', model_output: 'Revenue was 12 in 2023.' }, result_count: 1,
    };
    const report = {
      profile: 'old-profile', credit_score: 4, band: 'GOOD', high_count: 0, low_count: 1,
      claims: [{ id: 'C1', text: 'Revenue was 12' }], deductions: [],
      errors: [{ phase: 'fact_check', target: 'C1', type: 'contradiction', severity: 'Low', evidence: 'Revenue was 12', explanation: 'the context says 10', status: 'counted' }],
      reasonable_inferences: [], latency_ms: 900, tokens: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    await app.goto('/runs');
    await page.getByTestId('runs-import').setInputFiles(writeTemp('old.jsonl', `${JSON.stringify(header)}\n${JSON.stringify(report)}\n`));
    await page.getByTestId('runs-import-notice').filter({ hasText: 'Imported "Old audit" (1 results)' }).waitFor();
    await rows(page).first().getByTestId('run-open').click();
    await page.waitForURL(/\/audit\?run=r-old-1$/);
    await page.getByTestId('audit-kept-run').waitFor();
    const view = await auditView(page);
    assert.equal(view.score, '4');
    assert.equal(view.band, 'GOOD');
    assert.equal(view.totals, '0 High · 1 Low · 900 ms · 3 tokens');
    assert.deepEqual(view.claims, ['C1 Revenue was 12']);
    assert.match(view.findings[0], /Low\s+contradiction\s+C1\s+Revenue was 12[\s\S]*the context says 10/);
    assert.deepEqual(view.phases, [], 'no phase list is made up');
    assert.match(view.numbers[0], /Not in this report\./);
    assert.equal(await page.getByTestId('audit-kept-missing').innerText(),
      'Not in the stored run, so not shown: number_grounding: not stored; phases: not stored; models.run: not stored; models.verify: not stored.');
    assert.match(await page.getByTestId('audit-kept-from').innerText(), /^This is kept run Old audit from .+, audited under profile old-profile\. .*That profile is no longer in Settings: pick one to run it again\.$/);
    const statuses = await page.getByTestId('audit-phase-status').allInnerTexts();
    assert.deepEqual(statuses, Array(2).fill('Whether this phase ran is not known: the stored run has no phase records.'));
    assert.equal(await page.getByTestId('audit-output').inputValue(), 'Revenue was 12 in 2023.');
  });

  app.it('results kept in local storage by an older version become a batch run, once', async (page) => {
    await app.goto('/runs');
    await page.getByTestId('runs-empty').waitFor();
    const lines = fs.readFileSync(path.join(EXAMPLES, 'cases.jsonl'), 'utf8').trim().split('\n').slice(0, 3)
      .map((l) => JSON.stringify({ ...JSON.parse(l), profile: 'old-profile', credit_score: 4 }));
    await page.evaluate((t) => localStorage.setItem('verifyfast.batch.results', t), lines.join('\n'));
    await app.goto('/audit');
    await page.getByTestId('batch-count').filter({ hasText: '3 results stored' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('verifyfast.batch.results')), null);
    await page.getByTestId('nav-runs').click();
    await rows(page).first().waitFor();
    await page.reload();
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 1, 'moved once, not once per visit');
    assert.match(await rows(page).first().innerText(), /old-profile/);
    assert.equal(await rows(page).first().getByTestId('run-count').innerText(), '3');
  });

  app.it('the table sorts by any column, searches, pages 50 at a time, and a reload keeps the view', async (page) => {
    // 53 runs, imported as a user would (one file each): kinds in turn, distinct times.
    const KINDS = ['audit', 'batch', 'grade', 'report'];
    const made = [];
    for (let i = 0; i < 53; i++) {
      const n = (i * 7) % 11;
      const meta = {
        verifyfast_run: 1, id: `r-e2e-${String(i).padStart(2, '0')}`, name: i === 7 ? '营收 review 7' : `Run ${i}`,
        kind: KINDS[i % 4], created_ms: 1764000000000 + i * 60_000, finished_ms: 1764000000000 + i * 60_000 + (53 - i) * 1000,
        profiles: [`prof-${i % 3}`], settings: null, strategy: null, inputs: null, result_count: n,
      };
      made.push(meta);
      const lines = [meta, ...Array.from({ length: n }, (_, k) => ({ id: k }))].map((l) => JSON.stringify(l));
      made.at(-1).file = writeTemp(`run${i}.run.jsonl`, `${lines.join('\n')}\n`);
    }
    await app.goto('/runs');
    await page.getByTestId('runs-empty').waitFor();
    for (const m of made) {
      await page.getByTestId('runs-import').setInputFiles(m.file);
      await page.getByTestId('runs-import-notice').filter({ hasText: `Imported "${m.name}"` }).waitFor();
    }
    await page.getByTestId('runs-count').filter({ hasText: /^53 runs$/ }).waitFor();
    const names = () => page.getByTestId('run-name').allInnerTexts();
    // Wait (briefly) until the table shows `want`, then compare, so a failure shows both lists.
    const namesAre = async (want, message) => {
      await page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('[data-testid="run-name"]')].map((e) => e.innerText)) === w,
        JSON.stringify(want), { timeout: 5000 }).catch(() => {});
      assert.deepEqual(await names(), want, message);
    };
    const firstCount = (n) => page.waitForFunction((t) => document.querySelector('[data-testid="run-count"]')?.innerText === t, String(n));
    const counts = async () => (await page.getByTestId('run-count').allInnerTexts()).map(Number);
    const header = (c) => page.locator('th').filter({ has: page.getByTestId(`runs-sort-${c}`) });
    // Newest first, 50 a page.
    assert.equal(await rows(page).count(), 50);
    assert.equal((await names())[0], 'Run 52');
    assert.equal(await page.getByTestId('runs-page').innerText(), 'page 1 of 2');
    assert.equal(await header('created').getAttribute('aria-sort'), 'descending');

    // Results: ascending, then descending; the sort is in the URL.
    await page.getByTestId('runs-sort-results').click();
    await page.waitForURL(/runs\?sort=results$/);
    await firstCount(0);
    let c = await counts();
    assert.deepEqual(c, [...c].sort((a, b) => a - b));
    assert.equal(c[0], 0);
    await page.getByTestId('runs-sort-results').click();
    await page.waitForURL(/runs\?sort=-results$/);
    await firstCount(10);
    c = await counts();
    assert.deepEqual(c, [...c].sort((a, b) => b - a));
    assert.equal(c[0], 10);
    assert.equal(await header('results').getAttribute('aria-sort'), 'descending');

    // Name: natural order (Run 2 before Run 10); page 2 has the last three.
    await page.getByTestId('runs-sort-name').click();
    await page.waitForURL(/runs\?sort=name$/);
    const byName = made.filter((m) => m.name.startsWith('Run ')).sort((a, b) => Number(a.name.slice(4)) - Number(b.name.slice(4))).map((m) => m.name);
    byName.push('营收 review 7');
    await namesAre(byName.slice(0, 50));
    await page.getByTestId('runs-page-next').click();
    await page.waitForURL(/runs\?sort=name&page=2$/);
    await namesAre(['Run 51', 'Run 52', '营收 review 7']);

    // A reload lands on the same view.
    await page.reload();
    await page.getByTestId('runs-page').filter({ hasText: 'page 2 of 2' }).waitFor();
    await namesAre(['Run 51', 'Run 52', '营收 review 7']);
    assert.equal(await header('name').getAttribute('aria-sort'), 'ascending');

    // Search (name, kind, profiles, id) goes back to the first page; with the kind filter.
    await page.getByTestId('runs-search').fill('营收');
    await page.waitForURL(/runs\?filter=%E8%90%A5%E6%94%B6&sort=name$/);
    await namesAre(['营收 review 7']);
    assert.equal(await page.getByTestId('runs-count').innerText(), '1 of 53 runs matches the search');
    await page.getByTestId('runs-search').fill('prof-2');
    await page.getByTestId('runs-filter').selectOption('grade');
    const want = made.filter((m) => m.kind === 'grade' && m.profiles[0] === 'prof-2')
      .sort((a, b) => Number(a.name.slice(4)) - Number(b.name.slice(4))).map((m) => m.name);
    assert.ok(want.length >= 3, 'the search keeps several runs');
    await page.waitForURL(/runs\?filter=prof-2&kind=grade&sort=name$/);
    await namesAre(want);
    assert.equal(await page.getByTestId('runs-count').innerText(), `${want.length} of 13 runs match the search`);
    await page.getByTestId('runs-sort-created').click();
    await page.waitForURL(/sort=created$/);
    await namesAre([...want].sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))));
    await page.getByTestId('runs-sort-created').click();
    await page.waitForURL(/runs\?filter=prof-2&kind=grade$/, { timeout: 5000 });
    await namesAre([...want].reverse(), 'newest first again, the default');
    await page.reload();
    await rows(page).first().waitFor();
    await namesAre([...want].reverse());
    assert.equal(await page.getByTestId('runs-search').inputValue(), 'prof-2');
    assert.equal(await page.getByTestId('runs-filter').inputValue(), 'grade');

    // A regex search, also kept in the URL; an id finds its run.
    await page.getByTestId('runs-filter').selectOption('');
    await page.getByTestId('runs-search').fill('(?m)^run [0-3]$');
    await page.getByTestId('runs-search-regex').check();
    await page.waitForURL(/regex=1/);
    await namesAre(['Run 3', 'Run 2', 'Run 1', 'Run 0']);
    await page.reload();
    await rows(page).first().waitFor();
    await namesAre(['Run 3', 'Run 2', 'Run 1', 'Run 0']);
    assert.equal(await page.getByTestId('runs-search-regex').isChecked(), true);
    await page.getByTestId('runs-search-regex').uncheck();
    await page.getByTestId('runs-search').fill('r-e2e-41');
    await page.getByTestId('runs-empty').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
    await namesAre(['Run 41']);
    await page.getByTestId('runs-search').fill('no such run');
    await page.getByTestId('runs-empty').filter({ hasText: 'No run matches the search.' }).waitFor();
    assert.equal(await rows(page).count(), 0);
  });
});
