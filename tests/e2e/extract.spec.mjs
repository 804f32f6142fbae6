// Extract page: live extraction of a pasted solution (answer rendered with KaTeX, span
// highlighted, method, confidence, verdict with reason), a grade-format JSONL upload with a
// bad line (summary, line numbers, filter, downloads), and the browser throughput figure on
// the GSM8K fixture (printed as items/s).
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, ROOT } from './harness.mjs';

const GSM8K = path.join(ROOT, 'tests', 'fixtures', 'gsm8k_train.jsonl');

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-extract-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The GSM8K fixture as a grade file: each solution without its #### line vs the #### value. */
function gsm8kGradeFile() {
  const lines = fs.readFileSync(GSM8K, 'utf8').split('\n').filter((l) => l.trim());
  const out = lines.map((l, i) => {
    const { question, answer } = JSON.parse(l);
    const at = answer.lastIndexOf('####');
    return JSON.stringify({ id: i + 1, output: answer.slice(0, at), ground_truth: answer.slice(at + 4).trim(), question });
  });
  return { file: writeTemp('gsm8k-grade.jsonl', out.join('\n') + '\n'), n: out.length };
}

describe('extract page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('extracts a boxed answer, renders it with KaTeX and grades it', async (page) => {
    await app.goto('/extract');
    await page.getByTestId('extract-text').fill('We simplify and get $\\boxed{\\frac{5}{324}}$. <img src=x onerror="window.__xss=1">');
    await page.getByTestId('extract-gold').fill('5/324');
    const answer = page.getByTestId('extract-answer');
    await answer.locator('.katex .mfrac').waitFor();
    assert.equal(await answer.getAttribute('data-answer'), '\\frac{5}{324}');
    assert.equal(await page.getByTestId('extract-method').innerText(), 'boxed');
    assert.equal(await page.getByTestId('extract-highlight').locator('mark').innerText(), '\\frac{5}{324}');
    const verdict = page.getByTestId('extract-verdict');
    assert.equal(await verdict.getAttribute('data-equivalent'), 'true');
    assert.match(await verdict.innerText(), /exact_rational/);
    assert.equal(await page.locator('[data-testid="page-extract"] img').count(), 0);
    assert.equal(await page.evaluate(() => window.__xss ?? 0), 0);
  });

  app.it('shows the design-note example, traps and "no answer"', async (page) => {
    await app.goto('/extract');
    const text = page.getByTestId('extract-text');
    await text.fill('So he bought 80-26=54 more');
    await page.getByTestId('extract-gold').fill('54.0');
    assert.equal(await page.getByTestId('extract-method').innerText(), 'final_equation');
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '54');
    assert.equal(await page.getByTestId('extract-verdict').getAttribute('data-equivalent'), 'true');

    await text.fill('She answered correctly: 5 questions.\n#### 41');
    await page.getByTestId('extract-gold').fill('41');
    assert.equal(await page.getByTestId('extract-method').innerText(), 'hash_marker');

    await text.fill('The answer is 120006');
    await page.getByTestId('extract-gold').fill('120000');
    const v = page.getByTestId('extract-verdict');
    assert.equal(await v.getAttribute('data-equivalent'), 'false');
    assert.match(await page.getByTestId('extract-reason').innerText(), /120006/);

    await text.fill('I do not know.');
    assert.equal(await page.getByTestId('extract-answer').innerText(), 'No answer found');
    assert.equal(await page.getByTestId('extract-method').innerText(), 'none');
  });

  app.it('grades an uploaded JSONL: summary, bad line numbers, filter, downloads', async (page) => {
    const file = writeTemp('small.jsonl', [
      JSON.stringify({ id: 'a', output: 'So he bought 80-26=54 more', ground_truth: '54.0' }),
      '{this is not json',
      JSON.stringify({ id: 'c', output: 'The answer is (E)', ground_truth: 'E' }),
      JSON.stringify({ id: 'd', output: 'no idea', ground_truth: '3' }),
      JSON.stringify({ id: 'e', output: '(2,5)', ground_truth: '[2,5)' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    const summary = page.getByTestId('extract-summary');
    await summary.waitFor();
    const text = await summary.innerText();
    assert.match(text, /50\.00 %/);
    assert.match(text, /2 of 4 graded lines equivalent; 1 with no answer; 1 bad lines/);
    assert.equal(await page.getByTestId('extract-bad-lines').locator('li').getAttribute('data-line'), '2');
    assert.match(await page.getByTestId('extract-bad-lines').innerText(), /line 2: not valid JSON/);
    const rows = page.getByTestId('extract-table').locator('tbody tr');
    assert.equal(await rows.count(), 5);
    await page.getByTestId('extract-filter').selectOption('not_equivalent');
    assert.equal(await rows.count(), 2);
    await page.getByTestId('extract-filter').selectOption('bad');
    assert.equal(await rows.count(), 1);
    await page.getByTestId('extract-filter').selectOption('all');
    await page.getByTestId('extract-search').fill('brackets differ');
    assert.equal(await rows.count(), 1);
    await page.getByTestId('extract-search').fill('');

    const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-jsonl').click()]);
    const lines = fs.readFileSync(await jsonl.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 5);
    assert.equal(lines[0].predicted_answer, '54');
    assert.equal(lines[1].line, 2);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-csv').click()]);
    assert.equal(csv.suggestedFilename(), 'small.graded.csv');
    assert.match(fs.readFileSync(await csv.path(), 'utf8'), /^line,id,predicted_answer/);
  });

  app.it('a graded upload is kept as a run: the URL names it, a reload and Runs → Open bring the table back', async (page) => {
    const file = writeTemp('kept.jsonl', [
      JSON.stringify({ id: 'a', output: 'So he bought 80-26=54 more', ground_truth: '54.0' }),
      '{this is not json',
      JSON.stringify({ id: 'c', output: 'The answer is (E)', ground_truth: 'E' }),
      JSON.stringify({ id: 'd', output: 'no idea', ground_truth: '3' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const summary = await page.getByTestId('extract-summary').innerText();
    assert.match(summary, /2 of 3 graded lines equivalent; 1 with no answer; 1 bad lines/);
    await page.waitForURL(/\/extract\?run=r-/);
    const runId = new URL(page.url()).searchParams.get('run');

    const table = async () => page.getByTestId('extract-table').locator('tbody tr').evaluateAll(
      (trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()));
    const before = await table();
    await page.reload();
    await page.getByTestId('extract-kept').waitFor();
    assert.match(await page.getByTestId('extract-kept').innerText(), /Kept run “Grade · kept\.jsonl · 4 lines”/);
    assert.equal(await page.getByTestId('extract-summary').innerText(), summary, 'same summary after a reload');
    assert.deepEqual(await table(), before, 'same rows, answers and verdicts after a reload');
    assert.match(await page.getByTestId('extract-bad-lines').innerText(), /line 2: not valid JSON/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-csv').click()]);
    assert.equal(csv.suggestedFilename(), 'kept.graded.csv', 'exports are named after the file graded');
    // A kept run has no texts: opening a row says so instead of showing nothing.
    await page.getByTestId('extract-table').locator('tbody tr').first().click();
    assert.match(await page.getByTestId('extract-table').innerText(), /keeps verdicts, not texts: pick the file again/);

    await page.getByTestId('nav-runs').click();
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
    assert.equal(await row.getAttribute('data-kind'), 'grade');
    await row.getByTestId('run-open').click();
    await page.getByTestId('extract-kept').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('run'), runId);
    assert.deepEqual(await table(), before, 'Runs → Open shows the same table');

    // Picking another file replaces the kept run in the URL with its own.
    const other = writeTemp('other.jsonl', JSON.stringify({ id: 'z', output: 'The answer is 7', ground_truth: '7' }) + '\n');
    await page.getByTestId('extract-file').setInputFiles(other);
    await page.waitForURL((u) => u.searchParams.get('run') && u.searchParams.get('run') !== runId);
    assert.equal(await page.getByTestId('extract-kept').count(), 0);
  });

  app.it('regex search filters the grade table; an invalid regex shows its error and filters nothing', async (page) => {
    const file = writeTemp('search.jsonl', [
      JSON.stringify({ id: 'a', output: 'So he bought 80-26=54 more', ground_truth: '54.0' }),
      JSON.stringify({ id: 'ab', output: 'The answer is 7', ground_truth: '7' }),
      JSON.stringify({ id: 'c', output: 'no idea', ground_truth: '3' }),
      JSON.stringify({ id: 'e', output: '(2,5)', ground_truth: '[2,5)' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const rows = page.getByTestId('extract-table').locator('tbody tr');
    const count = page.getByTestId('extract-row-count');
    assert.equal(await rows.count(), 4);
    // Plain text: the regex is taken literally and matches nothing.
    await page.getByTestId('extract-search').fill('(?m)^A[B]?$');
    await count.filter({ hasText: /^0 rows match\./ }).waitFor();
    // As a regex (case-insensitive; (?m) anchors to one field, here the id): a and ab.
    await page.getByTestId('extract-search-regex').check();
    await count.filter({ hasText: /^2 rows match\./ }).waitFor();
    assert.equal(await rows.count(), 2);
    assert.deepEqual(await rows.locator('td:nth-child(2)').allInnerTexts(), ['a', 'ab']);
    assert.equal(await page.getByTestId('extract-search-error').count(), 0);
    await page.getByTestId('extract-search').fill('final_(equation|answer_marker)');
    await count.filter({ hasText: /^2 rows match\./ }).waitFor();
    // Invalid: the error is shown next to the box and every row stays.
    await page.getByTestId('extract-search').fill('([0-9');
    const error = page.getByTestId('extract-search-error');
    await error.waitFor();
    assert.match(await error.innerText(), /not a valid regex/);
    await count.filter({ hasText: /^4 rows match\./ }).waitFor();
    // Too large is refused rather than compiled.
    await page.getByTestId('extract-search').fill('\\w{5000}{5000}');
    await error.filter({ hasText: /size/ }).waitFor();
    await page.getByTestId('extract-search').fill('');
    assert.equal(await error.count(), 0);
    await count.filter({ hasText: /^4 rows match\./ }).waitFor();
  });

  app.it('answer patterns from imported settings come first and are shown as the rule', async (page) => {
    const yaml = [
      'llms:',
      '  local: {base_url: "http://127.0.0.1:9/v1", model: m}',
      'profiles:',
      '  p: {run: local, verify: local}',
      'answer_patterns:',
      '  - name: final-line',
      '    regex: "FINAL=(\\\\d+)"',
      '  - name: result',
      '    regex: "RESULT (\\\\d+)"',
      '',
    ].join('\n');
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(writeTemp('patterns.yaml', yaml));
    await page.getByTestId('settings-notice').filter({ hasText: '1 LLMs, 1 profiles, 2 answer patterns' }).waitFor();
    await app.goto('/extract');
    assert.match(await page.getByTestId('extract-patterns').innerText(), /final-line, result/);
    const text = page.getByTestId('extract-text');
    await text.fill('RESULT 3, FINAL=4, FINAL=5 and the last number is 99');
    await page.getByTestId('extract-gold').fill('5');
    await page.getByTestId('extract-method').filter({ hasText: 'final-line' }).waitFor();
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '5');
    assert.equal(await page.getByTestId('extract-verdict').getAttribute('data-equivalent'), 'true');
    await text.fill('RESULT 3 then 99');
    await page.getByTestId('extract-method').filter({ hasText: 'result' }).waitFor();
    await text.fill('So 80-26=54');
    await page.getByTestId('extract-method').filter({ hasText: 'final_equation' }).waitFor();

    const file = writeTemp('rules.jsonl', [
      JSON.stringify({ id: 1, output: 'FINAL=8 then 9', ground_truth: '8' }),
      JSON.stringify({ id: 2, output: 'it is 9', ground_truth: '9' }),
    ].join('\n') + '\n');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    assert.deepEqual(await page.getByTestId('extract-row-rule').allInnerTexts(), ['final-line', 'main_clause']);
    // Search finds rows by their rule.
    await page.getByTestId('extract-search-regex').check();
    await page.getByTestId('extract-search').fill('(?m)^final-LINE$');
    await page.getByTestId('extract-row-count').filter({ hasText: /^1 row matches\. Keys: j \/ k move/ }).waitFor();
  });

  app.it('a grade row opens its full solution with the answer marked; Enter opens, Esc closes', async (page) => {
    const gsm = 'Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether in April and May.';
    const frac = 'Half of 10 is 5.\nSo the answer is $\\boxed{\\frac{1}{2}}$ of it, not 7.';
    // A BOM and a multi-byte id: the line is read back from the file by its offset.
    const file = writeTemp('open.jsonl', '\uFEFF' + [
      JSON.stringify({ id: 'é-1', output: gsm, ground_truth: '72' }),
      JSON.stringify({ id: 'frac', output: frac, ground_truth: '0.5', question: 'What part?' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const detail = page.getByTestId('extract-detail');
    const row1 = page.locator('tr[data-line="1"]');
    await row1.click();
    const mark = detail.getByTestId('extract-detail-output').locator('mark');
    await mark.waitFor();
    const predicted = await row1.getByTestId('extract-row-predicted').locator('[data-answer]').getAttribute('data-answer');
    assert.equal(predicted, '72');
    assert.equal(await mark.innerText(), predicted);
    assert.equal(await detail.getByTestId('extract-detail-output').innerText(), gsm);
    assert.equal(await detail.getByTestId('extract-detail-path').innerText(), 'identical_text');
    assert.equal(await row1.getAttribute('aria-expanded'), 'true');
    // Focus moved to the opened row; Esc closes it and gives focus back to the row.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'extract-detail');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), '1');

    // Keyboard: j / k move between rows (k at the first row stays), Tab too; Enter opens.
    await page.keyboard.press('j');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), '2');
    await page.keyboard.press('k');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), '1');
    await page.keyboard.press('k');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), '1');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), '2');
    await page.keyboard.press('Enter');
    await mark.waitFor();
    assert.equal(await mark.innerText(), '\\frac{1}{2}');
    assert.equal(await detail.getByTestId('extract-detail-output').innerText(), frac);
    assert.equal(await detail.getByTestId('extract-detail-ground-truth').locator('mark').innerText(), '0.5');
    assert.equal(await detail.getByTestId('extract-detail-path').innerText(), 'exact_rational');
    assert.match(await detail.getByTestId('extract-detail-reason').innerText(), /= 1\/2/);
    await detail.getByTestId('extract-detail-predicted').locator('.katex .mfrac').waitFor();
    assert.equal(await detail.getByTestId('extract-detail-stale').count(), 0);
    // Only one row is open at a time; the close button closes too.
    await detail.getByTestId('extract-detail-close').click();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('extract-table').locator('tbody tr').count(), 2);
  });

  app.it('answers in the grade table render with KaTeX; hostile or broken LaTeX shows as text', async (page) => {
    const file = writeTemp('latex.jsonl', [
      JSON.stringify({ id: 'frac', output: 'The answer is $\\boxed{\\frac{1}{2}}$', ground_truth: '\\dfrac{1}{2}' }),
      JSON.stringify({ id: 'href', output: 'The answer is $\\boxed{\\href{javascript:alert(1)}{x}}$', ground_truth: 'x' }),
      JSON.stringify({ id: 'open', output: 'Final answer: \\frac{', ground_truth: '\\frac{1}{' }),
      JSON.stringify({ id: 'html', output: 'The answer is \\boxed{<img src=x onerror="window.__xss=1">}', ground_truth: '<b>3</b>' }),
      JSON.stringify({ id: 'num', output: 'So 80-26=54', ground_truth: '54' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const rows = page.getByTestId('extract-table').locator('tbody tr');
    assert.equal(await rows.count(), 5);
    const cell = (line, which) => page.locator(`tr[data-line="${line}"]`).getByTestId(which);
    await cell(1, 'extract-row-predicted').locator('.katex .mfrac').waitFor();
    await cell(1, 'extract-row-gold').locator('.katex .mfrac').waitFor();
    // No link from an untrusted \href, no markup from the answer text, nothing ran.
    assert.equal(await page.locator('[data-testid="extract-table"] a').count(), 0);
    assert.equal(await page.locator('[data-testid="page-extract"] img, [data-testid="extract-table"] b').count(), 0);
    assert.equal(await page.evaluate(() => window.__xss ?? 0), 0);
    // Unclosed \frac{: the raw text, not KaTeX's error and not a broken row.
    const broken = cell(3, 'extract-row-gold');
    assert.equal(await broken.locator('.katex').count(), 0);
    assert.equal(await broken.innerText(), await broken.locator('[data-answer]').getAttribute('data-answer'));
    // A plain number stays text.
    assert.equal(await cell(5, 'extract-row-predicted').locator('.katex').count(), 0);
    assert.equal(await cell(5, 'extract-row-predicted').innerText(), '54');
    // Sorting by a column header (table.rs rules), a second click the other way round.
    const order = () => page.locator('tr[data-line]').evaluateAll((trs) => trs.map((t) => t.dataset.line));
    const idHeader = page.getByTestId('extract-sort-id');
    await idHeader.click();
    assert.deepEqual(await order(), ['1', '2', '4', '5', '3']);
    assert.equal(await page.locator('th[aria-sort="ascending"]').innerText(), 'id');
    await idHeader.click();
    assert.deepEqual(await order(), ['3', '5', '4', '2', '1']);
    // The hostile rows still open, with their text as text.
    await page.locator('tr[data-line="4"]').click();
    const out = page.getByTestId('extract-detail-output');
    await out.waitFor();
    assert.match(await out.innerText(), /<img src=x onerror=/);
    assert.equal(await page.locator('[data-testid="page-extract"] img').count(), 0);
  });

  app.it('grades the GSM8K fixture in the browser and prints items/s', async (page) => {
    const { file, n } = gsm8kGradeFile();
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    const timing = page.getByTestId('extract-timing');
    await timing.waitFor({ timeout: 120_000 });
    const perSecond = Number(await timing.getAttribute('data-items-per-second'));
    const summary = await page.getByTestId('extract-summary').innerText();
    const accuracy = Number((await page.getByTestId('extract-accuracy').innerText()).replace(/[^\d.]/g, ''));
    console.log(`browser extract+grade: ${n} GSM8K items, ${perSecond} items/s (${await timing.innerText()}); accuracy ${accuracy}%`);
    assert.match(summary, new RegExp(`of ${n} graded lines`));
    assert.ok(accuracy >= 99.5, `GSM8K accuracy in the browser ${accuracy}%`);
    assert.ok(perSecond > 0);
    // 100 rows a page; Next shows the next hundred lines.
    const rows = page.getByTestId('extract-table').locator('tbody tr');
    assert.equal(await rows.count(), 100);
    assert.match(await page.getByTestId('extract-row-count').innerText(), new RegExp(`^${n} rows match; page 1 of ${Math.ceil(n / 100)}`));
    await page.getByTestId('extract-page-next').click();
    await page.getByTestId('extract-row-count').filter({ hasText: /page 2 of/ }).waitFor();
    assert.equal(await rows.first().getAttribute('data-line'), '101');
    // A new search starts again at the first page.
    await page.getByTestId('extract-search').fill('final_equation');
    await page.getByTestId('extract-row-count').filter({ hasText: /page 1 of/ }).waitFor();
  });
});
