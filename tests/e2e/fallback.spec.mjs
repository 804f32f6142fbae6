// The extractor's LLM fallback on the Extract page against the scripted server
// (tests/mock_llm/server.mjs): one solution (button, "ask automatically", a failing call that
// keeps the rule answer and says so), and a graded JSONL (only low-confidence lines sent,
// sent / changed / failed counts, the exports record which lines used the model, cancel, and
// leaving the page stops the run).
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, FALLBACK_GRADE } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-fallback-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function settingsFor(baseUrl) {
  return `llms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

// Ends on a bare last number (5): the rules are not confident.
const DOUBTFUL = 'There were 3 cats and then 5 dogs came along to play.';
// The rules doubt their boxed 5 against the stated 8 (and the text mentions cats).
const STATED = 'There were 3 cats. Maybe \\boxed{5}. The answer is 8.';

async function setup(app, page, mock, script) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(script) });
  await fetch(`${mock.url}/__log`, { method: 'DELETE' });
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settingsFor(mock.baseUrl)));
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLMs, 1 profiles' }).waitFor();
  await page.getByTestId('nav-extract').click();
  await page.getByTestId('page-extract').waitFor();
}

async function chats(mock) {
  const log = await (await fetch(`${mock.url}/__log`)).json();
  return log.requests.filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST')
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body));
}

const lastUser = (body) => body.messages[body.messages.length - 1].content;

describe('extract page: LLM fallback', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: [/Failed to load resource/i] });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('one solution: the button asks, shows both answers, the verdict used, latency and tokens', async (page) => {
    await setup(app, page, mock, {
      // The model answers between the call's answer lines; its answer counts when the text
      // states it as an answer (here the 8 the rules weighed against their boxed 5).
      rules: [{ match: 'cats', reply: { final_answer: '8' }, usage: { prompt_tokens: 120, completion_tokens: 4 } }],
      default_reply: { final_answer: '11' },
    });
    // A confident text offers no fallback.
    await page.getByTestId('extract-text').fill('So the final answer is \\boxed{42}.');
    await page.getByTestId('extract-method').filter({ hasText: 'boxed' }).waitFor();
    assert.equal(await page.getByTestId('fallback-single').count(), 0);

    await page.getByTestId('extract-text').fill(STATED);
    await page.getByTestId('extract-gold').fill('8');
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '5');
    assert.equal(await page.getByTestId('extract-verdict').getAttribute('data-outcome'), 'different');
    assert.match(await page.getByTestId('fallback-why').innerText(), /not sure \(confidence 0\.\d\d: .+\)/);
    const ruleMethod = await page.getByTestId('extract-method').innerText();
    assert.equal(await page.getByTestId('fallback-rule-answer').innerText(), `5 (${ruleMethod})`);
    assert.equal(await page.getByTestId('fallback-profile').inputValue(), 'mock-full');
    await page.getByTestId('fallback-ask').click();
    await page.getByTestId('fallback-model-answer').waitFor();
    assert.equal(await page.getByTestId('fallback-model-answer').innerText(), '8');
    assert.equal(await page.getByTestId('fallback-reply').innerText(), '8');
    assert.equal(await page.getByTestId('fallback-used').getAttribute('data-used'), 'model');
    assert.equal(await page.getByTestId('fallback-verdict').getAttribute('data-outcome'), 'equal');
    assert.match(await page.getByTestId('fallback-verdict').innerText(), /predicted `8` \(fallback\)/);
    assert.match(await page.getByTestId('fallback-cost').innerText(), /^\d+ ms · 124 tokens \(120 prompt \+ 4 completion\)$/);
    // The rules' own answer and verdict are still shown above.
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '5');
    const sent = await chats(mock);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].max_tokens, 200);
    assert.equal(sent[0].temperature, 0);
    assert.match(sent[0].messages[0].content, /FINAL ANSWER/);
    assert.ok(lastUser(sent[0]).includes(STATED));

    // "Ask automatically" (kept across a reload) asks once the edited text rests.
    await page.getByTestId('fallback-auto').check();
    await page.waitForTimeout(600);
    await page.reload();
    await page.getByTestId('page-extract').waitFor();
    assert.equal(await page.getByTestId('fallback-auto').isChecked(), true);
    await page.getByTestId('fallback-model-answer').waitFor();
    await page.getByTestId('extract-text').fill('Then \\boxed{4} birds flew off. The answer is 11.');
    await page.getByTestId('fallback-model-answer').filter({ hasText: '11' }).waitFor();
    assert.equal((await chats(mock)).length, 3, 'one call after the reload, one after the edit');
  });

  app.it('one solution: a failing call leaves the rule answer in place and says why', async (page) => {
    await setup(app, page, mock, { rules: [{ match: 'cats', fault: '401' }] });
    await page.getByTestId('extract-text').fill(DOUBTFUL);
    await page.getByTestId('extract-gold').fill('8');
    await page.getByTestId('fallback-ask').click();
    const err = page.getByTestId('fallback-error');
    await err.waitFor();
    assert.match(await err.innerText(), /The verify model call failed: the endpoint refused the API key \(HTTP 401\).*The rule answer stands: 5 \((main_clause|last_number)\)\./);
    assert.equal(await page.getByTestId('fallback-verdict').count(), 0);
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '5');
    assert.equal(await page.getByTestId('extract-verdict').getAttribute('data-outcome'), 'different');
  });

  app.it('JSONL: only low-confidence lines are sent; sent, changed, failed; exports record the model', async (page) => {
    await setup(app, page, mock, FALLBACK_GRADE.mock);
    const lines = FALLBACK_GRADE.lines;
    await page.getByTestId('fallback-batch-toggle').check();
    await page.getByTestId('fallback-concurrency').fill('2');
    await page.getByTestId('fallback-concurrency').dispatchEvent('change');
    await page.getByTestId('extract-file').setInputFiles(writeTemp('g.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
    const summary = page.getByTestId('fallback-summary');
    await page.locator('[data-testid="fallback-summary"][data-finished="true"]').waitFor();
    const attrs = async (k) => summary.getAttribute(`data-${k}`);
    assert.deepEqual([await attrs('sent'), await attrs('used'), await attrs('changed'), await attrs('failed')], ['3', '2', '1', '1']);
    assert.match(await summary.innerText(), /^3 low-confidence lines sent to the verify model: 2 answered by the model \(its answer used\), 1 changed the verdict, 1 failed/);
    assert.equal(await page.getByTestId('fallback-progress').getAttribute('value'), '3');
    const sent = (await chats(mock)).map(lastUser);
    assert.equal(sent.length, 3);
    assert.ok(!sent.some((p) => p.includes('boxed{7}') || p.includes('The answer is 6.')), 'confident lines never reach the model');
    // The rows and the summary use the model's answers: b and c now read by `fallback`.
    const rules = await page.getByTestId('extract-row-rule').allInnerTexts();
    assert.deepEqual(rules.map((r) => r.trim() === 'fallback'), [false, true, true, false, false]);
    assert.match(await page.getByTestId('extract-summary').innerText(), /3 of 5 graded lines equivalent; 0 with no answer/);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-jsonl').click()]);
    const out = fs.readFileSync(await dl.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(out[0].llm_fallback, undefined);
    assert.equal(out[1].predicted_method, 'fallback');
    assert.deepEqual([out[1].llm_fallback.used, out[1].llm_fallback.model_answer, out[1].llm_fallback.rule_verdict], [true, '12', 'different']);
    assert.equal(out[2].llm_fallback.rule_answer, '5');
    assert.match(out[4].llm_fallback.error, /HTTP 400/);
    assert.equal(out[4].predicted_answer, '2');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('extract-download-csv').click()]);
    const csvText = fs.readFileSync(await csv.path(), 'utf8');
    assert.match(csvText.split('\n')[0], /,low_confidence,llm_fallback,reason,/);
    assert.match(csvText, /"failed \(rule answer kept\): HTTP 400/);
    // The failed line can be sent again.
    assert.match(await page.getByTestId('fallback-batch-run').innerText(), /for 1 low-confidence lines/);
    // Opening a row the model answered shows what it did, not a "file changed" warning.
    await page.getByTestId('extract-row').nth(1).click();
    await page.getByTestId('extract-detail-fallback').filter({ hasText: /used the verify model's answer 12/ }).waitFor();
    assert.equal(await page.getByTestId('extract-detail-stale').count(), 0);
  });

  app.it('JSONL: Cancel stops the run and keeps what was answered; leaving the page stops it too', async (page) => {
    // Every line is low confidence: the rules doubt a boxed 2 against the stated 1. The model
    // answers `{"final_answer": …}` between the call's answer lines; Case A's 1, which its
    // text states as an answer, is used at once, the others answer slowly.
    await setup(app, page, mock, {
      rules: [{ match: 'Case A:', reply: { final_answer: '1' } }, { match: 'Case', reply: { final_answer: '0' }, latency_ms: 4000 }],
    });
    const lines = ['A', 'B', 'C', 'D', 'E', 'F'].map((c) => JSON.stringify({ id: c, output: `Case ${c}: Maybe \\boxed{2}. The answer is 1.`, ground_truth: '1' }));
    const file = writeTemp('slow.jsonl', lines.join('\n') + '\n');
    await page.getByTestId('fallback-batch-toggle').check();
    await page.getByTestId('fallback-concurrency').fill('1');
    await page.getByTestId('fallback-concurrency').dispatchEvent('change');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.locator('[data-testid="fallback-summary"][data-sent="1"]').waitFor();
    await page.getByTestId('fallback-batch-cancel').click();
    const summary = page.locator('[data-testid="fallback-summary"][data-cancelled="true"]');
    await summary.waitFor();
    assert.match(await summary.innerText(), /^Cancelled: 1 of 6 low-confidence lines sent: 1 answered by the model/);
    await page.waitForTimeout(500);
    assert.equal((await chats(mock)).length, 2, 'no call after Cancel');
    const rules = await page.getByTestId('extract-row-rule').allInnerTexts();
    assert.equal(rules[0].trim(), 'fallback', 'the answered line is kept');
    assert.equal(rules.filter((r) => r.trim() === 'fallback').length, 1);
    assert.match(await page.getByTestId('fallback-batch-run').innerText(), /for 5 low-confidence lines/);

    // Resume, then leave the page while a call is in flight: no further call is made.
    await fetch(`${mock.url}/__log`, { method: 'DELETE' });
    await page.getByTestId('fallback-batch-run').click();
    await page.getByTestId('fallback-batch-cancel').waitFor();
    while ((await chats(mock)).length < 1) await page.waitForTimeout(50);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('page-settings').waitFor();
    await page.waitForTimeout(4500);
    assert.equal((await chats(mock)).length, 1, 'leaving the page stopped the run');
  });
});
