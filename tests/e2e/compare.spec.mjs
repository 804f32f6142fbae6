// Compare page: two results files case by case (cross-band flips first, the exact McNemar
// line, Markdown export), two profiles of one file (in the URL), "Compare with…" from the
// Report page, plain errors for files that cannot be compared, and two kept runs (from the
// run store) compared by their ids in the URL, so a reload shows the comparison again.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-compare-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const line = (id, expected, score, profile = 'p') =>
  JSON.stringify({ id: `q${id}`, profile, expected_credit_score: expected, credit_score: score });

// 12 cases. A: q1–q3 BAD judged GOOD (cross-band). B fixes q1–q3, regresses q4 (5 → 4,
// same band), improves q5; the rest are unchanged. McNemar: A only 3, B only 0, p = 0.25.
const A = [line(1, 1, 5), line(2, 2, 4), line(3, 1, 4), line(4, 5, 5), line(5, 3, 1)];
const B = [line(1, 1, 1), line(2, 2, 2), line(3, 1, 2), line(4, 5, 4), line(5, 3, 2)];
for (let i = 6; i <= 12; i++) { A.push(line(i, 4, 4)); B.push(line(i, 4, 4)); }

// A batch line as the browser keeps it: the case's texts, its scores and errors, and the
// whole report under `audit_report` (so the case opens like a single audit, no new calls).
const DEMO_REPORT = JSON.parse(fs.readFileSync(new URL('../../public/examples/demo-audit.json', import.meta.url), 'utf8')).report;
const CONTEXT = 'Average load time went from 2.4 s to 1.8 s after the cache change.';
const finding = (phase, target, severity, evidence, explanation, notFound = false) => ({
  phase, target, type: 'unsupported', severity, evidence, explanation, status: 'counted',
  ...(notFound ? { evidence_not_found: true } : {}),
});
function keptLine(id, expected, score, output, errors, rules = []) {
  const report = { ...DEMO_REPORT, credit_score: score, errors, deterministic_findings: rules };
  return JSON.stringify({
    id: `q${id}`, context_input: CONTEXT, model_output: output, profile: 'p',
    expected_credit_score: expected, credit_score: score, errors, deterministic_findings: rules,
    audit_report: report,
  });
}
const OUT_A = 'Load time fell to 1.1 s, so the site is now twice as fast.';
const OUT_B = 'Load time fell from 2.4 s to 1.8 s.';
const KEPT_A = [
  keptLine(1, 1, 5, OUT_A, [finding('fact_check', 'C1', 'Low', 'fell to 1.1 s', 'A says: the context has 1.8 s, not 1.1 s.')]),
  ...A.slice(1),
];
const KEPT_B = [
  keptLine(1, 1, 1, OUT_B, [
    finding('fact_check', 'C1', 'High', 'fell from 2.4 s to 1.8 s', 'B says: the drop is stated without its cause.'),
    finding('logic_check', 'D1', 'Low', 'context_input', 'B says: the judge cited a field name.', true),
  ], [{ check: 'unsupported_number', severity: 'High', output_text: '1.8 s', context_text: '', explanation: 'B rule: 1.8 s checked by the rule.', status: 'counted' }]),
  ...B.slice(1),
];

describe('compare page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('two files: flips first, McNemar, Markdown export, sort and search', async (page) => {
    await app.goto('/');
    await page.getByTestId('nav-compare').click();
    await page.getByTestId('page-compare').waitFor();
    await page.getByTestId('compare-file-a').setInputFiles(writeTemp('a.jsonl', A.join('\n') + '\n'));
    await page.getByTestId('compare-label-a').filter({ hasText: 'a.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-file-b').setInputFiles(writeTemp('b.jsonl', B.join('\n') + '\n'));
    await page.getByTestId('compare-label-b').filter({ hasText: 'b.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-summary').filter({ hasText: 'a.jsonl → b.jsonl' }).waitFor();
    assert.match(await page.getByTestId('compare-counts').innerText(), /12 cases paired by id: improved 4, regressed 1, moved 0, unchanged 7; band changed in 3\./);
    assert.equal(await page.getByTestId('compare-mcnemar').innerText(),
      'Exact McNemar test: cross-band in A only 3, in B only 0, two-sided p = 0.2500.');
    assert.match(await page.getByTestId('compare-rates').innerText(), /A 3 \(25\.0 %\), B 0 \(0\.0 %\); B − A -25\.0 pt, 95 % CI \[/);
    const rows = page.getByTestId('compare-row');
    const changes = (await rows.getByTestId('compare-change').allInnerTexts()).map((s) => s.trim());
    assert.deepEqual(changes.slice(0, 5), ['fixed cross-band', 'fixed cross-band', 'fixed cross-band', 'regressed', 'improved']);
    assert.equal(await rows.count(), 12);

    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-export-md').click()]);
    assert.equal(md.suggestedFilename(), 'a-vs-b.md');
    const text = fs.readFileSync(await md.path(), 'utf8');
    assert.match(text, /^# Comparison: a\.jsonl → b\.jsonl/);
    assert.match(text, /two-sided p = 0\.2500/);
    assert.match(text, /\| q1 \| 1 \| 5 GOOD \| 1 BAD \| fixed cross-band \|/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-export-csv').click()]);
    assert.equal(fs.readFileSync(await csv.path(), 'utf8').trim().split('\n').length, 13);

    await page.getByTestId('compare-sort-id').click();
    await page.getByTestId('compare-sort-id').click();
    assert.equal((await rows.first().locator('td').first().innerText()).trim(), 'q12');
    await page.getByTestId('compare-search').fill('regressed');
    await page.getByTestId('compare-cases-count').filter({ hasText: /^1 case\(s\)$/ }).waitFor();
    assert.equal((await rows.first().locator('td').first().innerText()).trim(), 'q4');
  });

  app.it('two profiles of one file, with the profiles in the URL', async (page) => {
    await app.goto('/compare');
    const both = [...A.map((l) => l.replace('"profile":"p"', '"profile":"old"')), ...B.map((l) => l.replace('"profile":"p"', '"profile":"new"'))];
    await page.getByTestId('compare-file-a').setInputFiles(writeTemp('both.jsonl', both.join('\n')));
    await page.getByTestId('compare-label-a').filter({ hasText: '24 results' }).waitFor();
    // Only A is picked: the page says what to do next (a profile on each side), not an error.
    await page.getByTestId('compare-pick-b').filter({ hasText: 'a profile on each side' }).waitFor();
    assert.equal(await page.getByTestId('compare-error').count(), 0);
    await page.getByTestId('compare-profile-a').selectOption('old');
    await page.getByTestId('compare-profile-b').selectOption('new');
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 3, in B only 0' }).waitFor();
    assert.match(page.url(), /compare\?a=old&b=new$/);
    // Paired by id: each side's label names its profile, so the table has no (empty) profile column.
    await page.getByTestId('compare-sort-id').waitFor();
    assert.equal(await page.getByTestId('compare-sort-profile').count(), 0);
    assert.equal(await page.getByTestId('compare-row').first().locator('td').count(), 5);
  });

  app.it('"Compare with…" on Report brings its file along', async (page) => {
    await app.goto('/report');
    const both = [...A.map((l) => l.replace('"profile":"p"', '"profile":"old"')), ...B.map((l) => l.replace('"profile":"p"', '"profile":"new"'))];
    await page.getByTestId('report-file').setInputFiles(writeTemp('report-run.jsonl', both.join('\n')));
    await page.getByTestId('report-matrix').waitFor();
    // The picked file is kept as a run; the link names it, so the comparison survives a reload.
    await page.waitForURL(/report\?run=r-/);
    await page.getByTestId('report-compare').click();
    await page.getByTestId('page-compare').waitFor();
    await page.waitForURL(/compare\?ra=r-/);
    await page.getByTestId('compare-label-a').filter({ hasText: /report-run\.jsonl.*\(24 results\)/ }).waitFor();
    await page.getByTestId('compare-profile-a').selectOption('new');
    await page.getByTestId('compare-profile-b').selectOption('old');
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 0, in B only 3' }).waitFor();
  });

  app.it('says plainly when files cannot be compared', async (page) => {
    await app.goto('/compare');
    await page.getByTestId('compare-file-a').setInputFiles(writeTemp('notes.csv', 'id,score\n1,5\n'));
    assert.match(await page.getByTestId('compare-error-a').innerText(), /notes\.csv: this is not JSONL of results \(line 1: /);
    await page.getByTestId('compare-file-a').setInputFiles(writeTemp('a.jsonl', A.join('\n')));
    const other = A.map((l) => l.replace('"id":"q', '"id":"z'));
    await page.getByTestId('compare-file-b').setInputFiles(writeTemp('z.jsonl', other.join('\n')));
    await page.getByTestId('compare-error').filter({ hasText: 'these runs share no case ids (12 results in a.jsonl, 12 in z.jsonl)' }).waitFor();
    await page.getByTestId('compare-file-b').setInputFiles(writeTemp('empty.jsonl', ''));
    await page.getByTestId('compare-error-b').filter({ hasText: 'empty.jsonl: this file is empty, it has no results' }).waitFor();
  });

  app.it('two kept batch runs: chosen from the store, their ids in the URL, kept across a reload', async (page) => {
    // Put two batch runs in the store through the Runs page's import (a header line, then results).
    const runFile = (name, created, lines) => writeTemp(`${name}.jsonl`, [
      JSON.stringify({ verifyfast_run: 1, id: `r-${name.replace(' ', '-')}`, name, kind: 'batch', created_ms: created, finished_ms: created, profiles: ['p'], result_count: lines.length }),
      ...lines,
    ].join('\n') + '\n');
    await app.goto('/runs');
    await page.getByTestId('page-runs').waitFor();
    await page.getByTestId('runs-import').setInputFiles(runFile('old batch', 1_000, A));
    await page.getByTestId('runs-import-notice').filter({ hasText: 'Imported "old batch" (12 results)' }).waitFor();
    await page.getByTestId('runs-import').setInputFiles(runFile('new batch', 2_000, B));
    await page.getByTestId('runs-import-notice').filter({ hasText: 'Imported "new batch" (12 results)' }).waitFor();
    const idOf = async (name) => page.getByTestId('run-row').filter({ hasText: name }).getAttribute('data-run-id');
    const [idA, idB] = [await idOf('old batch'), await idOf('new batch')];
    assert.ok(idA && idB && idA !== idB);

    await page.getByTestId('nav-compare').click();
    await page.getByTestId('page-compare').waitFor();
    // Kept runs are listed newest first, after "none".
    const choices = page.getByTestId('compare-run-a').locator('option');
    await choices.nth(2).waitFor({ state: 'attached' });
    // Each named with its time, count and profile, so runs of one name can be told apart.
    const texts = (await choices.allInnerTexts()).map((s) => s.trim()).slice(0, 3);
    assert.deepEqual(texts.map((t) => t.split(' · ')[0]), ['none', 'new batch', 'old batch']);
    assert.match(texts[1], /^new batch · .+ · 12 results · p$/);
    await page.getByTestId('compare-run-a').selectOption(idA);
    await page.getByTestId('compare-label-a').filter({ hasText: 'old batch.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-run-b').selectOption(idB);
    await page.getByTestId('compare-label-b').filter({ hasText: 'new batch.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 3, in B only 0' }).waitFor();
    assert.match(await page.getByTestId('compare-counts').innerText(), /12 cases paired by id: improved 4, regressed 1/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('ra'), idA);
    assert.equal(url.searchParams.get('rb'), idB);

    await page.reload();
    await page.getByTestId('compare-label-a').filter({ hasText: 'old batch.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-label-b').filter({ hasText: 'new batch.jsonl (12 results)' }).waitFor();
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 3, in B only 0' }).waitFor();
    assert.equal(await page.getByTestId('compare-run-a').inputValue(), idA);
    assert.equal(await page.getByTestId('compare-run-b').inputValue(), idB);
  });
  // Two kept runs in the store through the Runs page's import (a header line, then results).
  async function importRuns(page, runs) {
    const ids = [];
    await app.goto('/runs');
    await page.getByTestId('page-runs').waitFor();
    for (const [name, created, lines] of runs) {
      const file = writeTemp(`${name}.jsonl`, [
        JSON.stringify({ verifyfast_run: 1, id: `r-${name.replace(' ', '-')}`, name, kind: 'batch', created_ms: created, finished_ms: created, profiles: ['p'], result_count: lines.length }),
        ...lines,
      ].join('\n') + '\n');
      await page.getByTestId('runs-import').setInputFiles(file);
      await page.getByTestId('runs-import-notice').filter({ hasText: `Imported "${name}"` }).waitFor();
      ids.push(await page.getByTestId('run-row').filter({ hasText: name }).getAttribute('data-run-id'));
    }
    return ids;
  }

  app.it('a changed case opens with both texts and both sides\' findings, kept in the URL', async (page) => {
    const [idA, idB] = await importRuns(page, [['kept old', 1_000, KEPT_A], ['kept new', 2_000, KEPT_B]]);
    await app.goto(`/compare?ra=${idA}&rb=${idB}`);
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 3, in B only 0' }).waitFor();
    // Changed cases are marked for opening; any case can be opened.
    // A case's id opens it.
    await page.getByTestId('compare-open').filter({ hasText: /^q1$/ }).click();
    const panel = page.getByTestId('compare-case');
    await panel.waitFor();
    await page.waitForURL(/[?&]case=q1(&|$)/);
    const check = async () => {
      await panel.getByTestId('compare-case-a').getByTestId('audit-finding').first().waitFor();
      // The context is the same on both sides: shown once; the outputs differ: one per side.
      assert.match(await panel.getByTestId('compare-case-context').innerText(), /2\.4 s to 1\.8 s after the cache change/);
      assert.match(await panel.getByTestId('compare-case-a').innerText(), /twice as fast/);
      assert.match(await panel.getByTestId('compare-case-b').innerText(), /fell from 2\.4 s to 1\.8 s/);
      const a = panel.getByTestId('compare-case-a');
      const b = panel.getByTestId('compare-case-b');
      assert.equal(await a.getByTestId('audit-finding').count(), 1);
      assert.match(await a.innerText(), /A says: the context has 1\.8 s/);
      assert.equal(await b.getByTestId('audit-finding').count(), 2);
      assert.match(await b.innerText(), /B says: the drop is stated/);
      assert.equal(await b.getByTestId('audit-evidence-not-found').count(), 1);
      assert.equal(await a.getByTestId('audit-evidence-not-found').count(), 0);
      assert.match(await b.getByTestId('audit-rule').innerText(), /B rule: 1\.8 s checked/);
      // A kept case opens like a single audit, without new calls.
      assert.match(await b.getByTestId('compare-case-audit').getAttribute('href'), new RegExp(`audit\\?run=${idB}&.*case=q1`));
    };
    await check();
    await page.reload();
    await panel.waitFor();
    await check();
    // Phone width: the sides stack and nothing runs off the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const [ba, bb] = [await panel.getByTestId('compare-case-a').boundingBox(), await panel.getByTestId('compare-case-b').boundingBox()];
    assert.ok(bb.y >= ba.y + ba.height - 1, `B below A on a phone (${JSON.stringify([ba, bb])})`);
    assert.ok(ba.x >= 0 && ba.x + ba.width <= 390 && bb.x + bb.width <= 390, 'each side fits the screen');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `no sideways scroll (${wide} px)`);
    // Back closes the case (opening it was a history entry).
    await page.goBack();
    await panel.waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /case=/);
  });

  app.it('a side from a results file without reports says its findings are not kept', async (page) => {
    const [idA] = await importRuns(page, [['kept only', 1_000, KEPT_A]]);
    await app.goto(`/compare?ra=${idA}`);
    await page.getByTestId('compare-label-a').filter({ hasText: '12 results' }).waitFor();
    await page.getByTestId('compare-file-b').setInputFiles(writeTemp('plain.jsonl', B.join('\n') + '\n'));
    await page.getByTestId('compare-mcnemar').filter({ hasText: 'A only 3, in B only 0' }).waitFor();
    // An unchanged case opens on demand too.
    await page.getByTestId('compare-open').filter({ hasText: /^q12$/ }).click();
    await page.getByTestId('compare-case').filter({ hasText: 'q12' }).waitFor();
    await page.getByTestId('compare-open').filter({ hasText: /^q1$/ }).click();
    const b = page.getByTestId('compare-case-b');
    await b.getByTestId('compare-case-not-kept').waitFor();
    assert.match(await b.innerText(), /findings are not kept/);
    assert.equal(await b.getByTestId('audit-finding').count(), 0);
    assert.equal(await page.getByTestId('compare-case-a').getByTestId('audit-finding').count(), 1);
  });
});
