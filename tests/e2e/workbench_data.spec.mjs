// Tables people expect (fallback answers and uploads are in loop.spec.mjs): search
// covers every visible column, `^`/`$` anchor per column, a matrix cell brings its cases into
// view, a whole case row opens, findings shown as the Audit page shows them); run store hygiene
// (each run's outcome, failed audits marked failed, multi-select delete); results as they
// arrive (Phase 1's claims before Phases 2 and 3 answer) and the Transcript of every prompt and
// reply, with no key, in the page, the kept run and its export.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm } from './harness.mjs';

const SECRET = 'sk-e2e-data-secret-4411';

function writeTemp(name, data) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vf-data-')), name);
  fs.writeFileSync(file, data);
  return file;
}

const settings = (baseUrl) => `llms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\n    api_key: "${SECRET}"\n` +
  `profiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;

// Phase 1 answers at once; Phases 2 and 3 take `slow` ms, so what Phase 1 said can be seen first.
function script({ slow = 0, failPhase1 = false } = {}) {
  const rules = [
    { match_any: 'Do not judge correctness', reply: { claims: [{ id: 'C1', text: 'the firm hired 40 people' }], deductions: [] } },
    { match_any: 'strict fact checker', latency_ms: slow, reply: { factual_errors: [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: 'hired 40 people', explanation: 'not in the context' }], reasonable_inferences: [] } },
    { match_any: 'strict logic checker', latency_ms: slow, reply: { logic_errors: [] } },
  ];
  if (failPhase1) rules.unshift({ match_any: 'Do not judge correctness', fault: '400' });
  return { rules };
}

describe('workbench data', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());
  const post = (s) => fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(s) });

  async function configure(page) {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settings(mock.baseUrl)));
    await page.getByTestId('settings-notice').filter({ hasText: '1 profiles' }).waitFor();
  }

  async function audit(page) {
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('The firm was founded in 2001.');
    await page.getByTestId('audit-output').fill('The firm hired 40 people.');
    await page.getByTestId('audit-run').click();
  }

  app.it('results land as they arrive; the transcript of every prompt and reply, without keys, is kept and exported', async (page) => {
    await configure(page);
    await post(script({ slow: 3000 }));
    await audit(page);
    // Phase 1's claims show while Phases 2 and 3 are still waiting for their replies.
    await page.getByTestId('audit-live-claim').filter({ hasText: 'the firm hired 40 people' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('audit-score').count(), 0, 'no score yet');
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('audit-landed').count(), 0, 'the report replaces the live results');

    const transcript = page.getByTestId('audit-transcript');
    await transcript.locator('summary').click();
    const calls = transcript.getByTestId('audit-transcript-call');
    assert.ok((await calls.count()) >= 3, `one per call: ${await calls.count()}`);
    const text = await transcript.innerText();
    assert.match(text, /Do not judge correctness/, 'the prompts are there');
    assert.match(text, /The firm hired 40 people\./, 'with the audited text');
    assert.match(text, /not in the context/, 'and the replies');
    assert.doesNotMatch(text, new RegExp(SECRET));

    // Kept with the run, and in its export; never the key.
    await page.getByTestId('nav-runs').click();
    const row = page.locator('[data-testid="run-row"][data-kind="audit"]').first();
    await row.waitFor();
    assert.match(await row.getByTestId('run-outcome').innerText(), /^score [1-5] · (BAD|MID|GOOD)$/);
    assert.equal(await row.getByTestId('run-outcome').getAttribute('data-failed'), 'false');
    const [dl] = await Promise.all([page.waitForEvent('download'), row.getByTestId('run-export').click()]);
    const exported = fs.readFileSync(await dl.path(), 'utf8');
    assert.doesNotMatch(exported, new RegExp(SECRET));
    const report = JSON.parse(exported.trim().split('\n')[1]);
    assert.ok(report.phases.every((p) => p.prompts.length === p.raw_responses.length), 'a prompt per reply');
    assert.match(JSON.stringify(report.phases[0].prompts), /Do not judge correctness/);
    await row.getByTestId('run-open').click();
    await page.getByTestId('audit-transcript').locator('summary').click();
    assert.ok((await page.getByTestId('audit-transcript-call').count()) >= 3, 'a reopened audit shows its transcript');
  });

  app.it('Runs: each run shows its outcome, a failed audit looks failed, several runs delete at once', async (page) => {
    await configure(page);
    await post(script());
    await audit(page);
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    await post(script({ failPhase1: true }));
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-unscored').waitFor({ timeout: 30_000 });
    await page.getByTestId('nav-runs').click();
    const rows = page.getByTestId('run-row');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
    const failed = page.locator('[data-testid="run-outcome"][data-failed="true"]');
    await failed.waitFor();
    assert.match(await failed.innerText(), /^failed: /);
    assert.equal(await page.locator('[data-testid="run-outcome"][data-failed="false"]').count(), 1);

    // Tick both, delete them in one go (asked once).
    for (const box of await page.getByTestId('run-select').all()) await box.check();
    assert.match(await page.getByTestId('runs-delete-selected').innerText(), /Delete selected \(2\)/);
    page.once('dialog', (d) => { assert.match(d.message(), /Delete 2 runs/); d.accept(); });
    await page.getByTestId('runs-delete-selected').click();
    await page.getByTestId('runs-empty').waitFor();
    assert.equal(await rows.count(), 0);
    await page.reload();
    await page.getByTestId('runs-empty').waitFor();
  });

  app.it('Runs: a results file picked on Report shows its outcome (cross-band rate of its cases)', async (page) => {
    const fixture = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'band_baseline_v3.jsonl');
    await app.goto('/report');
    await page.getByTestId('report-file').setInputFiles(fixture);
    await page.getByTestId('report-matrix').waitFor();
    await page.waitForURL(/run=r-/);
    await page.getByTestId('nav-runs').click();
    const outcome = page.getByTestId('run-outcome');
    await outcome.filter({ hasText: 'cross-band 5.0 % of 20 cases' }).waitFor();
    assert.equal(await outcome.getAttribute('data-failed'), 'false');
  });

  app.it('Extract search: every visible column, with ^ and $ anchoring each column', async (page) => {
    const ids = ['gsm-100', 'gsm-150', 'gsm-1500', 'x-120'];
    const file = writeTemp('ids.jsonl', ids.map((id, i) => JSON.stringify({ id, output: `So the answer is ${i + 3}.`, ground_truth: i % 2 ? '3.0' : `${i + 3}` })).join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const count = page.getByTestId('extract-row-count');
    await page.getByTestId('extract-search-regex').check();
    await page.getByTestId('extract-search').fill('^gsm-1\\d\\d$');
    await count.filter({ hasText: /^2 rows match/ }).waitFor();
    // The path column is searched too: anchored to that column, its value finds its rows.
    await page.getByTestId('extract-search').fill('');
    await count.filter({ hasText: /^4 rows match/ }).waitFor();
    const paths = await page.getByTestId('extract-row').evaluateAll((rs) => rs.map((r) => r.children[7].innerText.trim()));
    const one = paths[0];
    await page.getByTestId('extract-search').fill(`^${one}$`);
    const want = paths.filter((p) => p === one).length;
    await count.filter({ hasText: new RegExp(`^${want} rows? match`) }).waitFor();
  });

  app.it('Report: a matrix cell brings its cases into view, a whole row opens, findings read as on the Audit page', async (page) => {
    const lines = [];
    for (let i = 1; i <= 30; i++) {
      const expected = [5, 2, 3][i % 3];
      const judged = i === 6 ? 2 : expected;
      lines.push(JSON.stringify({
        id: i, profile: 'a', tag: 'clean', difficulty: 'easy', expected_credit_score: expected, credit_score: judged,
        context_input: `context ${i}`, model_output: `output ${i}`,
        errors: i === 6 ? [{ phase: 'fact_check', target: 'C1', type: 'unsupported', severity: 'High', evidence: 'output 6', explanation: '原文没有录取率', status: 'counted' }] : [],
      }));
    }
    await app.goto('/report');
    await page.getByTestId('report-file').setInputFiles(writeTemp('cells.jsonl', lines.join('\n') + '\n'));
    await page.getByTestId('report-matrix').waitFor();
    await page.getByTestId('report-cell-2-0').click();
    await page.getByTestId('report-cases-count').filter({ hasText: '1 case(s)' }).waitFor();
    await page.waitForFunction(() => {
      const r = document.getElementById('report-cases').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    // A click anywhere on the row opens the case (here its profile cell).
    await page.getByTestId('report-case-row').first().locator('td').nth(2).click();
    const panel = page.getByTestId('report-case');
    await panel.waitFor();
    const finding = panel.getByTestId('report-case-findings').getByTestId('audit-finding');
    await finding.waitFor();
    assert.equal(await finding.count(), 1);
    const text = await finding.innerText();
    assert.match(text, /High/);
    assert.match(text, /原文没有录取率/);
    assert.doesNotMatch(await panel.innerText(), /"severity"/, 'not raw JSON');
  });
});
