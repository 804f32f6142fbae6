// What a first-time user met next, page by page: Proof links (an unknown example, typed actions
// in the link, the events line, another pick asks first), Settings base URLs (other schemes,
// unparseable hosts, a stale error, no /v1, down vs CORS), a paste too large for a draft, the
// Extract table's view in the URL, a fallback reply of "none", Runs' tick boxes on a phone, the
// Audit page's "Check without a model", and a judge's evidence that is not a quote.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { useApp, startMockLlm } from './harness.mjs';

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-seams-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function settingsFor(baseUrl) {
  return `defaults:\n  max_tokens: 2000\n  temperature: 0\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

async function useSettings(app, page, baseUrl) {
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(writeTemp('settings.yaml', settingsFor(baseUrl)));
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLM' }).waitFor();
}

/** A local port nothing listens on (taken, then closed). */
async function closedPort() {
  const server = net.createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

const CONSOLE = [/Failed to load resource/i, /CORS policy/i, /ERR_FAILED/i, /net::/i];

describe('proof links', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('an unknown example in the link says so instead of a blank page', async (page) => {
    await app.goto('/proof?example=nope');
    const error = page.getByTestId('proof-error');
    await error.waitFor({ timeout: 10_000 });
    assert.match(await error.innerText(), /There is no example named `nope`: pick one from the list \(seed, /);
  });

  app.it('typed actions are in the link, a fresh browser replays them, the events line follows, another pick asks first', async (page) => {
    await app.goto('/proof');
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-step-label').filter({ hasText: '0 / 9' }).waitFor();
    assert.match(await page.getByTestId('proof-notice').innerText(), /: 9 events/);
    await page.getByLabel('Conclusion (LaTeX)').fill('a > 0 \\land b > 0');
    await page.getByTestId('proof-form-premises').fill('H-1, H-2');
    await page.getByTestId('proof-form-submit').click();
    await page.getByTestId('proof-form-result').waitFor();
    const label = await page.getByTestId('proof-step-label').innerText();
    const total = Number(label.split('/')[1]);
    assert.ok(total > 9, label);
    // The events line says the new count at once, not after a reload.
    assert.match(await page.getByTestId('proof-notice').innerText(), new RegExp(`: ${total} events, after the changes made here`));
    await page.waitForURL(/actions=/);
    const link = page.url();
    assert.match(link, new RegExp(`step=${total}`));
    // A fresh browser (no drafts) opening the link shows the same derivation at the same step.
    const fresh = await page.context().browser().newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    await other.getByTestId('proof-step-label').filter({ hasText: `${total} / ${total}` }).waitFor({ timeout: 15_000 });
    assert.equal(await other.getByTestId('proof-error').count(), 0);
    await fresh.close();
    // Another pick would discard the action: the page asks; "Cancel" keeps everything.
    let asked = '';
    page.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
    await page.getByTestId('proof-example').selectOption('or-elim');
    assert.match(asked, /The action you added to this one will be discarded/);
    assert.equal(await page.getByTestId('proof-example').inputValue(), 'seed');
    assert.equal(await page.getByTestId('proof-step-label').innerText(), label);
    assert.match(page.url(), /example=seed/);
  });
});

describe('settings: base URLs and Test connection', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: CONSOLE });
  let refusing;
  before(async () => { refusing = await startMockLlm(['--no-cors']); });
  after(() => refusing?.stop());

  app.it('another scheme and an unparseable URL are refused; a valid entry clears the error; no /v1 is hinted', async (page) => {
    await useSettings(app, page, 'http://127.0.0.1:9/v1');
    const url = page.getByTestId('settings-base-url').first();
    await url.fill('javascript:alert(1)');
    await url.dispatchEvent('change');
    assert.match(await page.getByTestId('settings-error').innerText(), /`javascript:` is not supported: the base URL must start with http:\/\/ or https:\/\//);
    assert.equal(await url.inputValue(), 'http://127.0.0.1:9/v1', 'the old value stays');
    await url.fill('http://127.0.0.1:99999/v1');
    await url.dispatchEvent('change');
    assert.match(await page.getByTestId('settings-error').innerText(), /not a URL a browser can call: the port `99999`/);
    await url.fill('http://127.0.0.1:8080/v1');
    await url.dispatchEvent('change');
    assert.equal(await page.getByTestId('settings-error').count(), 0, 'a valid entry clears the old error');
    await url.fill('http://127.0.0.1:8080');
    await url.dispatchEvent('change');
    assert.match(await page.getByTestId('settings-notice').innerText(), /no path after the host: .*under \/v1 \(e\.g\. http:\/\/127\.0\.0\.1:8080\/v1\)/);
  });

  app.it('Test connection tells a server that is down from one that refuses CORS', async (page) => {
    const dead = `http://127.0.0.1:${await closedPort()}/v1`;
    await useSettings(app, page, dead);
    await page.getByTestId('settings-test-connection').first().click();
    const result = page.getByTestId('settings-test-connection-result').first();
    await result.waitFor({ timeout: 20_000 });
    const down = await result.innerText();
    assert.ok(down.includes(`nothing answered at ${dead}`), down);
    assert.doesNotMatch(down, /CORS/);
    const url = page.getByTestId('settings-base-url').first();
    await url.fill(refusing.baseUrl);
    await url.dispatchEvent('change');
    await page.getByTestId('settings-test-connection').first().click();
    await result.filter({ hasText: 'answered, but' }).waitFor({ timeout: 20_000 });
    const cors = await result.innerText();
    assert.match(cors, /the server at .* answered, but it does not let this page read its replies \(CORS/);
    assert.match(cors, /OLLAMA_ORIGINS/);
    assert.doesNotMatch(cors, /not running/);
  });
});

describe('drafts, Extract, Runs, Audit', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: CONSOLE });
  let mock;
  before(async () => { mock = await startMockLlm(); });
  after(() => mock?.stop());

  app.it('a paste too large for a draft says so, also after a reload, and no older text comes back', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-context').fill('An older context, kept as a draft.');
    await page.waitForTimeout(700);
    const big = 'Revenue rose 8% in 2023. '.repeat(44_000); // about 1 MB
    await page.getByTestId('audit-context').fill(big);
    const notice = page.getByTestId('draft-not-kept');
    await notice.waitFor({ timeout: 5_000 });
    assert.match(await notice.innerText(), /Not kept as a draft: audit context is \d+ KB, more than the 512 KB kept as a draft/);
    await page.reload();
    await page.getByTestId('page-audit').waitFor();
    assert.equal(await page.getByTestId('audit-context').inputValue(), '', 'not the older text');
    await page.getByTestId('draft-not-kept').waitFor();
    await page.getByTestId('draft-not-kept').getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.getByTestId('draft-not-kept').count(), 0);
  });

  app.it('a text typed just before a reload is kept: the page being hidden writes the draft at once', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-context').fill('Typed a moment before the reload.');
    await page.getByTestId('audit-output').fill('And its output.');
    await page.reload(); // well within the 400 ms after the last keystroke
    await page.getByTestId('page-audit').waitFor();
    assert.equal(await page.getByTestId('audit-context').inputValue(), 'Typed a moment before the reload.');
    assert.equal(await page.getByTestId('audit-output').inputValue(), 'And its output.');
  });

  app.it('Extract: the table\'s search, filter and sort are in the URL and a reload keeps them', async (page) => {
    const file = writeTemp('small.jsonl', [
      JSON.stringify({ id: 'a', output: 'So he bought 80-26=54 more', ground_truth: '54.0' }),
      JSON.stringify({ id: 'c', output: 'The answer is (E)', ground_truth: 'E' }),
      JSON.stringify({ id: 'd', output: 'no idea', ground_truth: '3' }),
      JSON.stringify({ id: 'e', output: '(2,5)', ground_truth: '[2,5)' }),
      JSON.stringify({ id: 'f', output: 'The answer is 12', ground_truth: '13' }),
    ].join('\n') + '\n');
    await app.goto('/extract');
    await page.getByTestId('extract-file').setInputFiles(file);
    await page.getByTestId('extract-summary').waitFor();
    const rows = page.getByTestId('extract-table').locator('tbody tr');
    await page.getByTestId('extract-filter').selectOption('not_equivalent');
    await page.getByTestId('extract-search').fill('e');
    await page.getByTestId('extract-sort-id').click();
    await page.getByTestId('extract-sort-id').click();
    await page.waitForURL(/show=not_equivalent/);
    const url = page.url();
    assert.match(url, /filter=e/);
    assert.match(url, /sort=-id/);
    const before = await rows.allInnerTexts();
    await page.reload();
    await page.getByTestId('extract-summary').waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('extract-filter').inputValue(), 'not_equivalent');
    assert.equal(await page.getByTestId('extract-search').inputValue(), 'e');
    assert.equal(await page.getByTestId('extract-sort-id').locator('xpath=..').getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await rows.allInnerTexts(), before);
  });

  app.it('Extract: a fallback reply "The final answer is none." is no answer, not the answer none', async (page) => {
    await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ default_reply: { final_answer: 'The final answer is none.' } }) });
    await useSettings(app, page, mock.baseUrl);
    await page.getByTestId('nav-extract').click();
    await page.getByTestId('extract-text').fill('There were 3 cats and then 5 dogs came along to play.');
    await page.getByTestId('extract-gold').fill('8');
    await page.getByTestId('fallback-ask').click();
    await page.getByTestId('fallback-reply').filter({ hasText: 'The final answer is none.' }).waitFor({ timeout: 15_000 });
    assert.notEqual(await page.getByTestId('fallback-model-answer').innerText(), 'none');
    assert.notEqual(await page.getByTestId('fallback-used').getAttribute('data-used'), 'model');
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '5');
  });

  app.it('Runs: the tick boxes are at least 24 px on a phone', async (page) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const header = {
      verifyfast_run: 1, id: 'r-tick-1', name: 'Tick me', kind: 'audit', created_ms: 1764000000000,
      finished_ms: 1764000001000, profiles: ['p'], settings: null, strategy: null,
      inputs: { context_input: 'a', model_output: 'b' }, result_count: 1,
    };
    const report = { profile: 'p', credit_score: 5, band: 'GOOD', high_count: 0, low_count: 0, claims: [], deductions: [], errors: [] };
    await app.goto('/runs');
    await page.getByTestId('runs-import').setInputFiles(writeTemp('tick.run.jsonl', `${JSON.stringify(header)}\n${JSON.stringify(report)}\n`));
    await page.getByTestId('runs-import-notice').filter({ hasText: 'Imported "Tick me"' }).waitFor();
    const box = await page.getByTestId('run-select').first().boundingBox();
    assert.ok(box.width >= 24 && box.height >= 24, JSON.stringify(box));
  });

  app.it('Audit: "Check without a model" shows the rules\' findings at once, with no server', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-no-server').waitFor();
    // With no profile in Settings yet, the picker says so rather than showing a blank box.
    assert.match(await page.getByTestId('audit-profile').innerText(), /none yet \(Settings\)/);
    await page.getByTestId('audit-context').fill('Revenue rose 8% to $5 million in 2023.');
    await page.getByTestId('audit-output').fill('Revenue fell 8% to $7 million in 2023.');
    const t0 = Date.now();
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check').waitFor({ timeout: 2_000 });
    assert.ok(Date.now() - t0 < 2_000);
    assert.match(await page.getByTestId('audit-check-summary').innerText(), /The rules found 2 problems/);
    const found = await page.getByTestId('audit-check-finding').allInnerTexts();
    assert.ok(found.some((f) => /unsupported number/.test(f) && /7/.test(f)), found.join('\n'));
    assert.ok(found.some((f) => /opposite direction/.test(f)), found.join('\n'));
    await page.getByTestId('audit-numbers').waitFor();
    assert.equal(await page.getByTestId('audit-error').count(), 0);
    // A faithful output: nothing found, and the page says what the check does not cover.
    await page.getByTestId('audit-output').fill('Revenue rose 8% in 2023.');
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check-summary').filter({ hasText: 'The rules found nothing' }).waitFor();
    assert.match(await page.getByTestId('audit-check-summary').innerText(), /claims and logic need a model/);
    // A number the rules do not count is not called supported: the card says why it is left.
    await page.getByTestId('audit-output').fill('Revenue rose 8% to more than $4.5 million in 2023.');
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check-summary').filter({ hasText: 'The rules count nothing, but 1 number is not found' }).waitFor();
    assert.match(await page.getByTestId('audit-number-uncounted').innerText(), /not counted: a round bound that the context's \$?5 million meets/);
    // A rank is exact, as a year is: the 16th of the context's 17th is a finding that says so;
    // a season written with a hyphen is the context's en-dash season.
    await page.getByTestId('audit-context').fill('Storey can win a 17th title in the 2015–16 season.');
    await page.getByTestId('audit-output').fill('Storey won a 16th title in the 2015-16 season.');
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check-finding').filter({ hasText: 'written as a rank' }).waitFor();
    assert.equal(await page.getByTestId('audit-check-finding').count(), 1);
    // A count of one is checked: "one person" the context never counts is a finding; "a man"
    // states one, and "one day" is "some day".
    await page.getByTestId('audit-context').fill('Several other people received minor injuries in the crash.');
    await page.getByTestId('audit-output').fill('One day after the crash, one person was in hospital.');
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check-finding').filter({ hasText: 'one appears nowhere' }).waitFor();
    assert.equal(await page.getByTestId('audit-check-finding').count(), 1);
    await page.getByTestId('audit-context').fill('A man was taken to hospital after the crash.');
    await page.getByTestId('audit-check-button').click();
    await page.getByTestId('audit-check-summary').filter({ hasText: 'The rules found nothing' }).waitFor();
  });

  app.it('Audit: a judge\'s evidence that is not a quote is marked, never highlighted, and not counted', async (page) => {
    await fetch(`${mock.url}/__script`, {
      method: 'POST',
      body: JSON.stringify({
        rules: [
          { match_any: 'Do not judge correctness', reply: { claims: [{ id: 'C1', text: 'Revenue increased by 8%' }], deductions: [] } },
          { match_any: 'strict fact checker', reply: { factual_errors: [{ target: 'C1', type: 'contradiction', severity: 'High', evidence: 'context_input', explanation: 'contradiction: context says increased by 8%' }], reasonable_inferences: [] } },
          { match_any: 'strict logic checker', reply: { logic_errors: [] } },
        ],
      }),
    });
    await useSettings(app, page, mock.baseUrl);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill('In 2023 revenue increased by 8%.');
    await page.getByTestId('audit-output').fill('Revenue increased by 8%.');
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-score').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('audit-score').innerText(), '5');
    const finding = page.getByTestId('audit-finding').first();
    await finding.getByTestId('audit-evidence-not-found').waitFor();
    assert.match(await finding.innerText(), /its evidence is not in the context or the output: not counted/);
    assert.equal(await finding.locator('mark').count(), 0, 'the invented evidence is not highlighted');
  });
});
