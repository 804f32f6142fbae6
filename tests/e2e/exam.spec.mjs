// Exam grading on the Extract page: a pasted gaokao-style answer (`【答案】 B <eoa>`) graded
// against a multiple-choice gold says which rule found the option letters and that they are
// equal, the "Multiple choice" toggle is kept in the URL; a grade JSONL upload shows the
// answer-type column and filters rows by multiple choice, "no answer" and "restated the
// question" (also kept in the URL).
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-exam-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

// Our own text in the benchmark's shape: an explanation section, then the answer section.
const GAOKAO = '【解析】设公差为 $d$，由 $a_3=5$ 与 $a_5=9$ 得 $d=2$，所以 $a_1=1$，只有选项 B 符合。<eoe>\n【答案】 B <eoa>';

describe('exam grading on the extract page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('a gaokao answer against a multiple-choice gold: the letters, the rule that found them, equal', async (page) => {
    await app.goto('/extract');
    await page.getByTestId('extract-text').fill(GAOKAO);
    await page.getByTestId('extract-gold').fill('B');
    const toggle = page.getByTestId('extract-choices');
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('choices') === 'on');
    const choice = page.getByTestId('extract-choice');
    assert.equal(await choice.getByTestId('extract-choice-letters').innerText(), 'B');
    assert.equal(await choice.getByTestId('extract-choice-rule').innerText(), 'final_answer_marker');
    assert.match(await choice.innerText(), /【答案】/);
    const verdict = page.getByTestId('extract-verdict');
    assert.equal(await verdict.getAttribute('data-outcome'), 'equal');
    assert.match(await verdict.innerText(), /Equivalent/);
    assert.match(await verdict.innerText(), /choice/);

    // Two letters for a single-choice gold: a different set, said as such.
    await page.getByTestId('extract-text').fill(GAOKAO.replace('【答案】 B', '【答案】 B、C'));
    assert.equal(await choice.getByTestId('extract-choice-letters').innerText(), 'B, C');
    assert.equal(await verdict.getAttribute('data-outcome'), 'different');

    // The mode survives a reload (texts are drafts, the mode is in the URL).
    await page.reload();
    assert.equal(await page.getByTestId('extract-choices').isChecked(), true);
    await page.getByTestId('extract-choice').waitFor();
    await page.getByTestId('extract-choices').uncheck();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('choices'));
  });

  app.it('the grade table: an answer-type column and filters for multiple choice, no answer and restated questions', async (page) => {
    const lines = [
      { id: 'mc', output: '【解析】两式相减得 $x=3$，故选 C。<eoe>\n【答案】 C <eoa>', ground_truth: 'C', answer_type: 'choice' },
      { id: 'restated', question: 'Simplify $\\sqrt{8}$.', output: 'The answer is $\\boxed{\\sqrt{8}}$.', ground_truth: '2\\sqrt{2}' },
      { id: 'plain', output: 'so the total is 10', ground_truth: '10' },
      { id: 'none', output: 'I cannot tell.', ground_truth: '9' },
      // The question copied back: the rules read its own number, which is the gold.
      { id: 'copied', question: 'Tom has 5 apples and eats none. How many apples does Tom have?', output: 'Tom has 5 apples and eats none. How many apples does Tom have?', ground_truth: '5' },
    ];
    const file = writeTemp('exam.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    const rows = page.getByTestId('extract-row');
    await rows.nth(4).waitFor();
    const headers = await page.getByTestId('extract-table').locator('thead th').allInnerTexts();
    assert.ok(headers.some((h) => /answer type/.test(h)), headers.join(' | '));
    const types = await page.getByTestId('extract-row-answer-type').allInnerTexts();
    assert.deepEqual(types.map((t) => t.trim()), ['multiple choice', 'other', 'other', 'other', 'other']);
    assert.equal(await rows.nth(0).getAttribute('class').then((c) => /\bok\b/.test(c)), true);

    const ids = async () => (await rows.evaluateAll((rs) => rs.map((r) => r.children[1].textContent)));
    const filter = page.getByTestId('extract-filter');
    await filter.selectOption('choice');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="extract-row"]').length === 1);
    assert.deepEqual(await ids(), ['mc']);
    await filter.selectOption('restated');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('show') === 'restated');
    assert.deepEqual(await ids(), ['restated', 'copied']);
    for (const t of await page.getByTestId('extract-row-type').allInnerTexts()) assert.match(t, /restated the question/);
    await filter.selectOption('no_answer');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('show') === 'no_answer');
    assert.deepEqual(await ids(), ['none']);
    assert.match(await page.getByTestId('extract-row-type').first().innerText(), /no answer found/);
  });
});
