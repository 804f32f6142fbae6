// Report page: upload a results file, the band matrix and verdict appear, a cell drill-down
// lists the right cases, a case opens with its text kept inert, exports download, and a
// 100 MB file stays responsive (timing printed when the benchmark file exists).
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, ROOT } from './harness.mjs';

const BASELINE = path.join(ROOT, 'tests', 'fixtures', 'band_baseline_v3.jsonl');
const BAD_LINES = path.join(ROOT, 'tests', 'fixtures', 'band_bad_lines.jsonl');
const BIG = path.join(ROOT, 'target', 'bench-band', 'results-100mb.jsonl');

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-report-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Two profiles over the same three cases; profile b confuses case 2 (BAD judged GOOD). */
function twoProfiles() {
  const cases = [
    { id: 1, tag: 'clean', difficulty: 'easy', expected_credit_score: 5 },
    { id: 2, tag: 'major_factual', difficulty: 'hard', expected_credit_score: 2 },
    { id: 3, tag: 'multi_minor', difficulty: 'medium', expected_credit_score: 3 },
  ];
  const judged = { a: [5, 2, 3], b: [4, 5, 4] };
  const lines = [];
  for (const profile of ['a', 'b']) {
    cases.forEach((c, i) => lines.push(JSON.stringify({
      ...c,
      context_input: `某高校2023年本科招生计划为3200人 (case ${c.id})`,
      model_output: `<img src=x onerror="window.__xss=1"> 985录取率高达95% (case ${c.id})`,
      profile,
      credit_score: judged[profile][i],
      errors: [{ phase: 'fact', severity: 'Low', target: 'C1' }],
    })));
  }
  return writeTemp('two-profiles.jsonl', lines.join('\n') + '\n');
}

async function upload(page, file) {
  await page.getByTestId('report-file').setInputFiles(file);
  await page.getByTestId('report-matrix').waitFor({ timeout: 60_000 });
}

describe('report page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('shows the seed baseline: matrix, cross-band rate and verdict', async (page) => {
    await app.goto('/report');
    await upload(page, BASELINE);
    assert.equal(await page.getByTestId('report-progress').getAttribute('value'),
      String(fs.statSync(BASELINE).size));
    const cells = [];
    for (let e = 0; e < 3; e++) {
      for (let a = 0; a < 3; a++) {
        cells.push(Number((await page.getByTestId(`report-cell-${e}-${a}`).locator('strong').innerText()).trim()));
      }
    }
    assert.deepEqual(cells, [8, 0, 1, 0, 0, 4, 0, 1, 6]);
    assert.equal(await page.getByTestId('report-cross-band-rate').innerText(), '5.0 %');
    assert.equal(await page.getByTestId('report-verdict').innerText(), 'not met');
    assert.match(await page.getByTestId('report-bad-lines').innerText(), /Bad lines \(0\)/);
    // Row percentages are shown with the counts.
    assert.match(await page.getByTestId('report-cell-0-0').innerText(), /88\.9 %/);
  });

  app.it('a matrix cell drill-down lists exactly its cases, and a case opens', async (page) => {
    await app.goto('/report');
    await upload(page, BASELINE);
    await page.getByTestId('report-cell-1-2').click();
    await page.getByTestId('report-cases-count').filter({ hasText: 'expected MID → judged GOOD — 4 case(s)' }).waitFor();
    const ids = await page.getByTestId('report-case-row').locator('td:nth-child(2)').allInnerTexts();
    assert.deepEqual(ids.map((s) => s.trim()), ['9', '10', '11', '12']);
    await page.getByTestId('report-cell-0-2').click();
    await page.getByTestId('report-cases-count').filter({ hasText: '1 case(s)' }).waitFor();
    const row = page.getByTestId('report-case-row');
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), /13\s+kimi-full\s+major_factual/);
    await row.getByRole('button').click();
    await page.getByTestId('report-case').waitFor();
    assert.match(await page.getByTestId('report-case').innerText(), /expected 2[\s\S]*judged 4/);
  });

  app.it('profiles side by side, filters, and model text stays text', async (page) => {
    await app.goto('/report');
    await page.evaluate(() => { window.__xss = 0; });
    await upload(page, twoProfiles());
    assert.equal(await page.getByTestId('report-cross-band-rate').innerText(), '16.7 %');
    const profiles = await page.getByTestId('report-profiles').innerText();
    assert.match(profiles, /b\s+3\s+33\.3 %\s+\+33\.3 pt/);
    assert.equal(await page.getByTestId('report-profiles').locator('.delta-worse').count() > 0, true);
    await page.getByTestId('report-filter-cross').check();
    await page.getByTestId('report-cases-count').filter({ hasText: 'cross-band only — 1 case(s)' }).waitFor();
    await page.getByTestId('report-filter-cross').uncheck();
    await page.getByTestId('report-filter-profile').selectOption('a');
    await page.getByTestId('report-cases-count').filter({ hasText: 'profile a — 3 case(s)' }).waitFor();
    await page.getByTestId('report-tag-multi_minor').click();
    await page.getByTestId('report-cases-count').filter({ hasText: 'tag multi_minor — 2 case(s)' }).waitFor();
    await page.getByTestId('report-case-row').first().getByRole('button').click();
    const view = page.getByTestId('report-case');
    await view.waitFor();
    const text = await view.innerText();
    assert.match(text, /某高校2023年本科招生计划为3200人 \(case 3\)/);
    assert.match(text, /<img src=x onerror/);
    assert.match(text, /"severity": "Low"/);
    assert.equal(await view.locator('img').count(), 0);
    assert.equal(await page.evaluate(() => window.__xss), 0);
  });

  app.it('case search: plain text, a regex, and an invalid regex shown next to the box', async (page) => {
    await app.goto('/report');
    await upload(page, twoProfiles());
    const count = page.getByTestId('report-cases-count');
    await count.filter({ hasText: 'all cases — 6 case(s)' }).waitFor();
    await page.getByTestId('report-search').fill('CLEAN');
    await count.filter({ hasText: 'search "CLEAN" — 2 case(s)' }).waitFor();
    assert.equal(await page.getByTestId('report-case-row').count(), 2);
    // The same box as a regex: tags major_factual and multi_minor, case-insensitive.
    await page.getByTestId('report-search-regex').check();
    await page.getByTestId('report-search').fill('(?m)^M(ajor|ulti)_');
    await count.filter({ hasText: 'regex "(?m)^M(ajor|ulti)_" — 4 case(s)' }).waitFor();
    assert.equal(await page.getByTestId('report-case-row').count(), 4);
    await page.getByTestId('report-filter-profile').selectOption('b');
    await count.filter({ hasText: 'profile b · regex "(?m)^M(ajor|ulti)_" — 2 case(s)' }).waitFor();
    // The search is in the URL as a regex: a reload keeps it one.
    await page.waitForURL((u) => u.searchParams.get('regex') === '1');
    await page.reload();
    await count.filter({ hasText: 'profile b · regex "(?m)^M(ajor|ulti)_" — 2 case(s)' }).waitFor();
    assert.equal(await page.getByTestId('report-search-regex').isChecked(), true);
    // Invalid: its error is shown and the search filters nothing (the profile filter still does).
    await page.getByTestId('report-search').fill('[unclosed');
    const error = page.getByTestId('report-search-error');
    await error.waitFor();
    assert.match(await error.innerText(), /not a valid regex/);
    await count.filter({ hasText: 'profile b · regex "[unclosed" — 3 case(s)' }).waitFor();
    await page.getByTestId('report-filter-clear').click();
    await count.filter({ hasText: 'all cases — 6 case(s)' }).waitFor();
    assert.equal(await error.count(), 0);
    assert.equal(await page.getByTestId('report-search').inputValue(), '');
  });

  app.it('lists bad lines with their numbers and still counts the rest', async (page) => {
    await app.goto('/report');
    await upload(page, BAD_LINES);
    const bad = await page.getByTestId('report-bad-lines').innerText();
    assert.match(bad, /Bad lines \(9\)/);
    assert.match(bad, /line 3: not a JSON object/);
    assert.match(bad, /line 8: credit_score 7 is outside 1–5/);
    assert.match(bad, /line 11: .*not valid UTF-8/);
    assert.equal(await page.getByTestId('report-cross-band-rate').innerText(), '50.0 %');
  });

  app.it('exports Markdown, JSON and the filtered cases', async (page) => {
    await app.goto('/report');
    await upload(page, BASELINE);
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-md').click()]);
    assert.equal(md.suggestedFilename(), 'band_baseline_v3-band.md');
    const text = fs.readFileSync(await md.path(), 'utf8');
    assert.match(text, /# Band report/);
    assert.match(text, /\| BAD \(1–2\) \| 8 \| 0 \| \*\*1\*\* ⚠ \|/);
    assert.match(text, /\*\*not met\*\*/);
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-json').click()]);
    const report = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
    assert.deepEqual(report.overall.matrix, [[8, 0, 1], [0, 0, 4], [0, 1, 6]]);
    await page.getByTestId('report-tag-multi_minor').click();
    await page.getByTestId('report-cases-count').filter({ hasText: '4 case(s)' }).waitFor();
    const [cases] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-cases').click()]);
    const lines = fs.readFileSync(await cases.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.id), [9, 10, 11, 12]);
  });

  app.it('a cases-only file points to the batch run', async (page) => {
    await app.goto('/report');
    const file = writeTemp('cases.jsonl', '{"id":1,"tag":"clean","expected_credit_score":5}\n');
    await page.getByTestId('report-file').setInputFiles(file);
    await page.getByTestId('report-cases-only').filter({ hasText: 'Run a batch audit first' }).waitFor();
    assert.equal(await page.getByTestId('report-matrix').count(), 0);
  });

  app.it('100 MB results file: report timing and longest main-thread task', { skip: !fs.existsSync(BIG) && 'run `cargo bench --bench band` first to generate the file' }, async (page) => {
    await app.goto('/report');
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    const t0 = Date.now();
    await page.getByTestId('report-file').setInputFiles(BIG);
    await page.getByTestId('report-matrix').waitFor({ timeout: 120_000 });
    const wall = (Date.now() - t0) / 1000;
    const timing = await page.getByTestId('report-timing').innerText();
    const longest = await page.evaluate(() => window.__longest);
    console.log(`report page, ${path.basename(BIG)}: ${timing}; upload-to-matrix ${wall.toFixed(2)} s; longest main-thread task ${longest.toFixed(0)} ms`);
    assert.match(await page.getByTestId('report-verdict').innerText(), /met|not met|not shown/);
  });
});
