// The whole workbench loop in one browser session, without uploading
// anything twice: configure an endpoint → single audit → batch with injected faults → retry
// failed (good results untouched) → open the run on Report → drill into a cross-band cell →
// open a case in Audit and re-run it → run again with a second profile → compare the two runs →
// reload lands on the same view → Back closes the drill-down.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, ROOT, FALLBACK_GRADE } from './harness.mjs';

const CASES = path.join(ROOT, 'public', 'examples', 'cases.jsonl');

const settings = (baseUrl) => `llms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\n` +
  `profiles:\n  first:\n    run: mock\n    verify: mock\n  second:\n    run: mock\n    verify: mock\n`;

function writeTemp(name, data) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vf-loop-')), name);
  fs.writeFileSync(file, data);
  return file;
}

// Phase 2 finds one High unsupported claim (credit score 2, BAD) or nothing (5, GOOD); the first
// `failFirst` Phase 1 calls answer HTTP 400, so those cases could not be audited.
function script({ failFirst = 0, clean = false } = {}) {
  const claim = { claims: [{ id: 'C1', text: 'the claim' }], deductions: [] };
  const fact = clean
    ? { factual_errors: [], reasonable_inferences: [] }
    // No evidence quoted (the cases differ): evidence that is in neither text would be listed,
    // not counted (docs/audit.md, "Evidence that is not a quote").
    : { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: '', explanation: 'not in the context' }], reasonable_inferences: [] };
  const rules = [
    { match_any: 'Do not judge correctness', reply: claim },
    { match_any: 'strict fact checker', reply: fact },
    { match_any: 'strict logic checker', reply: { logic_errors: [] } },
  ];
  if (failFirst) rules.unshift({ match_any: 'Do not judge correctness', fault: '400', times: failFirst });
  return { rules };
}

describe('workbench loop', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());
  const post = (s) => fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(s) });

  // Configure an endpoint with two profiles, then one audit: one High unsupported claim, credit
  // score 2.
  async function configureAndAudit(page) {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settings(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '2 profiles' }).waitFor();
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('The firm hired 40 people in 2023.');
    await page.getByTestId('audit-output').fill('The firm hired 40 people and the claim.');
    await post(script());
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').filter({ hasText: '2' }).waitFor({ timeout: 30_000 });
  }

  async function batch(page, profile, notice) {
    await page.getByTestId('batch-upload').setInputFiles(CASES);
    await page.getByTestId('batch-cases').filter({ hasText: '12 cases' }).waitFor();
    for (const box of await page.getByTestId('batch-profile').all()) {
      if ((await box.getAttribute('value')) === profile) await box.check(); else await box.uncheck();
    }
    await page.getByTestId('batch-concurrency').fill('2');
    await page.getByTestId('batch-concurrency').dispatchEvent('change');
    await page.getByTestId('batch-run').click();
    await page.getByTestId('batch-notice').filter({ hasText: notice }).waitFor({ timeout: 90_000 });
  }

  app.it('configure → audit → batch → retry → report → drill → Open in Audit → second profile → compare → reload → Back', async (page) => {
    await configureAndAudit(page);

    // A batch under the first profile with 3 injected faults: 3 pairs could not be audited.
    // The counts add up (9 + 3 = 12 pairs), and each failed pair says why, first in the table.
    await post(script({ failFirst: 3 }));
    await batch(page, 'first', /Done: 9 audited, 3 could not be audited, 0 already done/);
    const caseRows = page.getByTestId('batch-case-row');
    assert.equal(await caseRows.count(), 12);
    const statuses = await caseRows.evaluateAll((rs) => rs.map((r) => r.dataset.status));
    assert.deepEqual(statuses.slice(0, 3), Array(3).fill('could not be audited'));
    assert.ok(statuses.slice(3).every((s) => s === 'scored'), statuses.join(', '));
    for (const reason of (await page.getByTestId('batch-case-reason').allInnerTexts()).slice(0, 3)) {
      assert.match(reason, /HTTP 400/);
    }
    // The same reason is in the results file lines (the CLI's format) and in Report's bad lines.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-download').click()]);
    const failedLines = fs.readFileSync(await dl.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.error);
    assert.equal(failedLines.length, 3);
    assert.match(failedLines[0].error, /HTTP 400/);
    const firstRun = new URL(await page.getByTestId('batch-open-report').getAttribute('href'), page.url()).searchParams.get('run');
    await app.goto(`/report?run=${firstRun}`);
    await page.getByTestId('report-matrix').waitFor();
    assert.match(await page.getByTestId('report-bad-lines').innerText(), /not audited: .*HTTP 400/);
    // The picked cases file is kept as a draft across other pages (here Report and Settings).
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('page-settings').waitFor();
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('batch-cases').filter({ hasText: 'cases.jsonl: 12 cases' }).waitFor();
    await page.getByTestId('batch-count').filter({ hasText: '12 results stored' }).waitFor();
    for (const box of await page.getByTestId('batch-profile').all()) {
      if ((await box.getAttribute('value')) === 'first') await box.check(); else await box.uncheck();
    }
    // Retry failed: only those 3 are sent again; the run is whole.
    await post(script());
    await fetch(`${mock.url}/__log`, { method: 'DELETE' });
    await page.getByTestId('batch-retry').click();
    await page.getByTestId('batch-notice').filter({ hasText: /Retry done: 3 failed pairs retried: 3 scored, 0 could not be audited again/ }).waitFor({ timeout: 60_000 });
    const log = await (await fetch(`${mock.url}/__log`)).json();
    assert.equal(log.requests.filter((r) => JSON.stringify(r.body || '').includes('Do not judge correctness') && !JSON.stringify(r.body || '').includes('not statements of model_output')).length, 3);

    // Open the run on Report and drill into the cross-band cell GOOD expected, judged BAD.
    await page.getByTestId('batch-open-report').click();
    await page.getByTestId('report-matrix').waitFor();
    const runA = new URL(page.url()).searchParams.get('run');
    assert.match(runA, /^r-/);
    await page.getByTestId('report-cell-2-0').click();
    await page.waitForURL(/cell=good-bad/);
    const row = page.getByTestId('report-case-row').first();
    const caseId = (await row.getByRole('button').innerText()).trim();
    await row.getByRole('button').click();
    await page.getByTestId('report-case').waitFor();

    // Open that case in Audit under the second profile: the fields are filled and it re-runs.
    await post(script({ clean: true }));
    await page.getByTestId('report-open-audit-profile').selectOption('second');
    await page.getByTestId('report-open-audit-go').click();
    await page.getByTestId('page-audit').waitFor();
    const cases = fs.readFileSync(CASES, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const opened = cases.find((c) => String(c.id) === caseId);
    assert.equal(await page.getByTestId('audit-context').inputValue(), opened.context_input);
    assert.equal(await page.getByTestId('audit-profile').inputValue(), 'second');
    await page.getByTestId('audit-score').filter({ hasText: '5' }).waitFor({ timeout: 30_000 });

    // Run the batch again under the second profile (a new run; the model now finds nothing).
    // A new run has no results yet: "Open the band report" opens nothing (not another batch).
    await page.getByTestId('batch-new-run').click();
    assert.equal(await page.getByTestId('batch-open-report').getAttribute('href'), null);
    assert.equal(await page.getByTestId('batch-open-report').getAttribute('aria-disabled'), 'true');
    await batch(page, 'second', /Done: 12 audited, 0 could not be audited/);
    assert.equal(await page.getByTestId('batch-case-row').filter({ hasText: 'could not be audited' }).count(), 0);

    const runB = new URL(await page.getByTestId('batch-open-report').getAttribute('href'), page.url()).searchParams.get('run');
    assert.ok(runB && runB !== runA, `second run ${runB}`);

    // Compare the two kept runs case by case: every case changed band one way or the other,
    // cross-band flips are listed first, with the exact McNemar line.
    await page.getByTestId('nav-compare').click();
    await page.getByTestId('compare-run-a').locator(`option[value="${runA}"]`).waitFor({ state: 'attached' });
    await page.getByTestId('compare-run-a').selectOption(runA);
    await page.getByTestId('compare-run-b').selectOption(runB);
    const mcnemar = page.getByTestId('compare-mcnemar').filter({ hasText: /Exact McNemar test: cross-band in A only \d+, in B only \d+, two-sided p = / });
    await mcnemar.waitFor();
    assert.match(await page.getByTestId('compare-counts').innerText(), /^12 cases paired by id/);
    const changes = (await page.getByTestId('compare-row').getByTestId('compare-change').allInnerTexts()).map((t) => t.trim());
    const firstOther = changes.findIndex((c) => !/cross-band/.test(c));
    assert.ok(changes.some((c) => /cross-band/.test(c)), changes.join(', '));
    assert.ok(firstOther === -1 || changes.slice(firstOther).every((c) => !/cross-band/.test(c)), `flips first: ${changes.join(', ')}`);

    // Reload lands on the same comparison.
    await page.reload();
    await mcnemar.waitFor();
    assert.equal(await page.getByTestId('compare-run-a').inputValue(), runA);
    assert.equal(await page.getByTestId('compare-run-b').inputValue(), runB);

    // Back on the first run's report: the drill-down and open case survive a reload; Back closes it.
    await app.goto(`/report?run=${runA}&cell=good-bad`);
    await page.getByTestId('report-matrix').waitFor();
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    await page.getByTestId('report-case').waitFor();
    await page.waitForURL(/case=/);
    await page.reload();
    await page.getByTestId('report-case').waitFor();
    await page.goBack();
    await page.getByTestId('report-case').waitFor({ state: 'detached' });
    assert.match(page.url(), new RegExp(`report\\?run=${runA}&cell=good-bad$`));
  });

  // A batch with failures after a reload: Retry failed retries them as they were (the ticks
  // are kept with the run), a malformed 200 is retried once, a batch stopped by a reload says
  // so and a resumed run counts failed pairs apart from done ones, and any case opens on
  // Audit like a single audit, from what the run kept, without a new call.
  app.it('batch: malformed 200 retried; reload → Retry failed; reload mid-batch → counts add up; a case opens like an audit without calls', async (page) => {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settings(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '2 profiles' }).waitFor();
    await page.getByTestId('nav-audit').click();
    // Two malformed 200 bodies, then three HTTP 400s, on Phase 1: the malformed ones are
    // retried (once), the 400s are final: 3 pairs fail, not 5.
    const faulty = script({ failFirst: 3 });
    faulty.rules.unshift({ match_any: 'Do not judge correctness', fault: 'malformed', times: 2 });
    await post(faulty);
    await batch(page, 'first', /Done: 9 audited, 3 could not be audited, 0 already done/);

    // A reload (or a visit to Report) loses nothing: the ticks come back with the run and
    // Retry failed retries the 3 failed pairs.
    await page.reload();
    await page.getByTestId('batch-count').filter({ hasText: '12 results stored' }).waitFor();
    const ticked = async () => page.getByTestId('batch-profile').evaluateAll((bs) => bs.filter((b) => b.checked).map((b) => b.value));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="batch-profile"]')].some((b) => b.checked));
    assert.deepEqual(await ticked(), ['first']);
    await post(script());
    await page.getByTestId('batch-retry').filter({ hasText: 'Retry failed (3)' }).click();
    await page.getByTestId('batch-notice').filter({ hasText: /Retry done: 3 failed pairs retried: 3 scored, 0 could not be audited again/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('batch-case-row').filter({ hasText: 'could not be audited' }).count(), 0);

    // Any case opens like a single audit, from what the run kept: claims, findings, transcript,
    // and no call to the model.
    await fetch(`${mock.url}/__log`, { method: 'DELETE' });
    // The table is folded when nothing failed.
    await page.getByTestId('batch-cases-table').locator('summary').click();
    const open = page.getByTestId('batch-case-open').first();
    const caseId = (await open.innerText()).trim();
    const score = (await page.getByTestId('batch-case-row').first().locator('td').nth(3).innerText()).trim();
    assert.match(score, /^[1-5]$/);
    await open.click();
    await page.waitForURL((u) => /^r-/.test(u.searchParams.get('run') || '') && u.searchParams.get('case') === caseId && u.searchParams.get('profile') === 'first');
    await page.getByTestId('audit-kept-run').waitFor();
    // The score, findings and bookkeeping the batch got, and every call's prompt and reply.
    await page.getByTestId('audit-score').filter({ hasText: score }).waitFor();
    assert.ok(await page.getByTestId('audit-warning').count() + await page.getByTestId('audit-claim').count() >= 1, 'its claims');
    assert.ok(await page.getByTestId('audit-transcript-call').count() >= 3, 'its transcript');
    const cases = fs.readFileSync(CASES, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(await page.getByTestId('audit-context').inputValue(), cases.find((c) => String(c.id) === caseId).context_input);
    await page.reload();
    await page.getByTestId('audit-kept-run').waitFor();
    await page.getByTestId('audit-score').filter({ hasText: score }).waitFor();
    // Report's case panel opens the same way.
    const runId = new URL(page.url()).searchParams.get('run');
    await app.goto(`/report?run=${runId}`);
    await page.getByTestId('report-matrix').waitFor();
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    await page.getByTestId('report-case-explain').click();
    await page.waitForURL((u) => u.searchParams.get('run') === runId && u.searchParams.get('case'));
    await page.getByTestId('audit-kept-run').waitFor();
    await page.getByTestId('audit-score').waitFor();
    assert.equal((await (await fetch(`${mock.url}/__log`)).json()).requests.length, 0, 'no new calls');

    // A new run stopped by a reload half way: the panel says so; Run batch resumes it, and the
    // pairs that failed before are not counted as done.
    await page.getByTestId('batch-new-run').click();
    const slow = script({ failFirst: 2 });
    slow.latency_ms = 300;
    await post(slow);
    await page.getByTestId('batch-concurrency').fill('1');
    await page.getByTestId('batch-concurrency').dispatchEvent('change');
    await page.getByTestId('batch-run').click();
    await page.waitForFunction(() => /^([6-9]|1[01]) results stored/.test(document.querySelector('[data-testid="batch-count"]')?.textContent || ''), null, { timeout: 60_000 });
    await page.reload();
    await page.getByTestId('batch-notice').filter({ hasText: /stopped before it finished/ }).waitFor();
    const failedBefore = await page.getByTestId('batch-case-row').filter({ hasText: 'could not be audited' }).count();
    assert.equal(failedBefore, 2);
    await post(script());
    await page.getByTestId('batch-run').click();
    const done = page.getByTestId('batch-notice').filter({ hasText: /^Done: / });
    await done.waitFor({ timeout: 60_000 });
    const m = (await done.innerText()).match(/Done: (\d+) audited, (\d+) could not be audited, (\d+) already done\. (\d+) failed in an earlier run and were not retried: use Retry failed\./);
    assert.ok(m, await done.innerText());
    const [audited, failed, already, before] = m.slice(1).map(Number);
    assert.equal(failed, 0);
    assert.equal(before, failedBefore, 'the failed pairs, as the table says');
    assert.equal(audited + already + before, 12, 'the counts add up to the pairs');
    assert.equal(await page.getByTestId('batch-case-row').filter({ hasText: 'could not be audited' }).count(), failedBefore);
  });

  // Back reaches an earlier audit: each kept audit is its own history entry.
  app.it('two audits, then Back: the first audit, then the page before', async (page) => {
    await configureAndAudit(page);
    await page.waitForURL(/audit\?run=r-/);
    const first = page.url();
    await post(script({ clean: true }));
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').filter({ hasText: '5' }).waitFor({ timeout: 30_000 });
    await page.waitForURL((u) => /audit\?run=r-/.test(u.href) && u.href !== first);
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction((want) => location.href === want, first, { timeout: 5_000 }).catch(async () => assert.fail(`Back went to ${page.url()}, not ${first}`));
    await page.getByTestId('audit-kept-run').waitFor();
    await page.getByTestId('audit-score').filter({ hasText: '2' }).waitFor();
    await page.goBack({ waitUntil: 'commit' });
    await page.getByTestId('page-settings').waitFor();
  });

  // Nothing the model said is lost. A grade upload's LLM fallback answers are
  // part of its kept run: the Extract nav link and a reload reopen it with the same summary,
  // rows and exports; the rule answer sits beside the model's; "changed by the model" filters;
  // Runs shows the accuracy; the same file uploaded again reuses the run.
  app.it('grade + LLM fallback → kept run with the answers → Runs → Extract reopens it → re-upload reuses it', async (page) => {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settings(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '2 profiles' }).waitFor();
    await post(FALLBACK_GRADE.mock);
    const lines = FALLBACK_GRADE.lines;
    const file = writeTemp('graded.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await page.getByTestId('nav-extract').click();
    await page.getByTestId('fallback-batch-toggle').check();
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.locator('[data-testid="fallback-summary"][data-finished="true"]').waitFor({ timeout: 30_000 });
    const attrs = async () => page.getByTestId('fallback-summary').evaluate((e) => ['sent', 'used', 'changed', 'failed'].map((k) => e.dataset[k]));
    assert.deepEqual(await attrs(), ['3', '2', '1', '1']);
    const summary = await page.getByTestId('extract-summary').innerText();
    assert.match(summary, /3 of 5 graded lines equivalent/);
    await page.waitForURL(/\/extract\?run=r-/);
    const runId = new URL(page.url()).searchParams.get('run');
    // Side by side: the model's answer (predicted, rule `fallback`) and the rules' one before it.
    const before = await page.getByTestId('extract-row-before').allInnerTexts();
    assert.match(before[2], /^5\s+(main_clause|last_number)/, before.join(' | '));
    assert.equal(before[0].trim(), '', 'a confident line was not sent: nothing before the model');
    await page.getByTestId('extract-filter').selectOption('changed_by_model');
    await page.getByTestId('extract-row-count').filter({ hasText: /^1 row matches/ }).waitFor();
    assert.match(await page.getByTestId('extract-row').first().innerText(), /\bb\b[\s\S]*12/);
    await page.getByTestId('extract-filter').selectOption('all');
    const rowsNow = async () => page.getByTestId('extract-table').locator('tbody tr').evaluateAll(
      (trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()));
    const shown = await rowsNow();
    const [dl1] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-jsonl').click()]);
    const exported = fs.readFileSync(await dl1.path(), 'utf8');

    // Runs: the grade run with its accuracy (the model's answers counted), once written.
    await page.getByTestId('nav-runs').click();
    const run = page.locator(`[data-run-id="${runId}"]`);
    await run.getByTestId('run-outcome').filter({ hasText: 'accuracy 60.00 % (3 of 5)' }).waitFor();
    assert.match(await run.getByTestId('run-name').innerText(), /^Grade · graded\.jsonl · 5 lines$/);

    // The Extract nav link reopens the last grade run: same summary, rows, model summary, export.
    await page.getByTestId('nav-extract').click();
    await page.getByTestId('extract-kept').waitFor();
    await page.waitForURL(new RegExp(`run=${runId}`));
    assert.equal(await page.getByTestId('extract-summary').innerText(), summary);
    assert.deepEqual(await attrs(), ['3', '2', '1', '1'], 'the model summary is kept: not "0 sent"');
    assert.deepEqual(await rowsNow(), shown);
    const [dl2] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-jsonl').click()]);
    assert.equal(fs.readFileSync(await dl2.path(), 'utf8'), exported, 'the same export, llm_fallback included');
    await page.reload();
    await page.getByTestId('extract-kept').waitFor();
    assert.equal(await page.getByTestId('extract-summary').innerText(), summary);

    // The same file again: its run is reused, with the model's answers; no second grade run.
    await page.getByTestId('fallback-batch-toggle').uncheck();
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-kept').filter({ hasText: /graded before: its run “Grade · graded\.jsonl · 5 lines” is reused, with what the verify model said on 3 lines/ }).waitFor();
    await page.waitForURL(new RegExp(`run=${runId}`));
    assert.equal(await page.getByTestId('extract-summary').innerText(), summary);
    await page.getByTestId('nav-runs').click();
    await page.locator('[data-testid="run-row"][data-kind="grade"]').first().waitFor();
    assert.equal(await page.locator('[data-testid="run-row"][data-kind="grade"]').count(), 1);
  });
});
