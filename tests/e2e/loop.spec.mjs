// Issue 14's "Done when": the whole workbench loop in one browser session, without uploading
// anything twice: configure an endpoint → single audit → batch with injected faults → retry
// failed (good results untouched) → open the run on Report → drill into a cross-band cell →
// open a case in Audit and re-run it → run again with a second profile → compare the two runs →
// reload lands on the same view → Back closes the drill-down.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, ROOT } from './harness.mjs';

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
    : { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: 'the claim', explanation: 'not in the context' }], reasonable_inferences: [] };
  const rules = [
    { match_any: 'Do not judge correctness', reply: claim },
    { match_any: 'strict fact checker', reply: fact },
    { match_any: 'strict logic checker', reply: { logic_errors: [] } },
  ];
  if (failFirst) rules.unshift({ match_any: 'Do not judge correctness', fault: '400', times: failFirst });
  return { rules };
}

describe('workbench loop (issue 14, done when)', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());
  const post = (s) => fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(s) });

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
    // Configure an endpoint with two profiles.
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settings(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '2 profiles' }).waitFor();

    // A single audit: one High unsupported claim, credit score 2.
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('The firm hired 40 people in 2023.');
    await page.getByTestId('audit-output').fill('The firm hired 40 people and the claim.');
    await post(script());
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').filter({ hasText: '2' }).waitFor({ timeout: 30_000 });

    // A batch under the first profile with 3 injected faults: 3 pairs could not be audited.
    await post(script({ failFirst: 3 }));
    await batch(page, 'first', /Done: 12 audited, 3 could not be audited/);
    // Retry failed: only those 3 are sent again; the run is whole.
    await post(script());
    await fetch(`${mock.url}/__log`, { method: 'DELETE' });
    await page.getByTestId('batch-retry').click();
    await page.getByTestId('batch-notice').filter({ hasText: /Done: 3 audited, 0 could not be audited, 9 already done/ }).waitFor({ timeout: 60_000 });
    const log = await (await fetch(`${mock.url}/__log`)).json();
    assert.equal(log.requests.filter((r) => JSON.stringify(r.body || '').includes('Do not judge correctness')).length, 3);

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
    await page.getByTestId('batch-new-run').click();
    await batch(page, 'second', /Done: 12 audited, 0 could not be audited/);

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
    const changes = (await page.getByTestId('compare-row').locator('td:nth-child(6)').allInnerTexts()).map((t) => t.trim());
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
});
