// The browser app against the real llama.cpp server, from the page's own origin (the harness
// serves dist/ on 127.0.0.1; llama-server echoes the Origin for CORS): Settings → API key →
// Test connection → Audit. Asserts what a real model makes certain, and that the key shows up
// nowhere on the page or in the downloaded report.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useApp } from '../e2e/harness.mjs';
import { KEY, MODEL, settingsYaml, tempDir, exampleCases, checkReport, assertNoKey } from './real.mjs';

/** Settings for the real server imported on the Settings page, its API key entered. */
async function configure(app, page) {
  const settings = path.join(tempDir(), 'settings.yaml');
  fs.writeFileSync(settings, settingsYaml());
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(settings);
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLMs, 1 profiles' }).waitFor();
  await page.getByTestId('settings-api-key').first().fill(KEY);
  await page.getByTestId('settings-api-key').first().dispatchEvent('change');
}

describe('browser against the real server', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('Settings → Test connection → Audit: a 1–5 score or "could not audit", the number check, no key', { timeout: 15 * 60_000 }, async (page) => {
    await configure(app, page);
    await page.getByTestId('settings-test-connection').click();
    const connected = page.getByTestId('settings-test-connection-result');
    await connected.filter({ hasText: /Connected|failed/ }).waitFor({ timeout: 60_000 });
    assert.match(await connected.innerText(), new RegExp(`Connected: model \`${MODEL.replace(/\./g, '\\.')}\` is available`));

    const [c] = exampleCases(1);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('audit-context').fill(c.context_input);
    await page.getByTestId('audit-output').fill(c.model_output);
    const started = Date.now();
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-phases').filter({ hasText: 'Phase 1' }).waitFor();
    // Done when the report (score or could-not-audit) is on the page.
    await page.locator('[data-testid="audit-report"], [data-testid="audit-error"]').first()
      .waitFor({ timeout: 12 * 60_000 });
    await page.getByTestId('audit-report').waitFor({ timeout: 5_000 }).catch(() => {});
    const ms = Date.now() - started;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-download').click()]);
    const reportText = fs.readFileSync(await download.path(), 'utf8');
    const report = JSON.parse(reportText);
    checkReport(assert, report);
    const score = await page.getByTestId('audit-score').innerText();
    if (report.credit_score === null) {
      assert.equal(score, '—');
      assert.match(await page.getByTestId('audit-error').innerText(), /could not audit/);
    } else {
      assert.equal(score, String(report.credit_score));
    }
    // The number check card, next to the findings.
    assert.match(await page.getByTestId('audit-numbers-summary').innerText(), /\d+ numbers?: \d+ found/);
    console.log(`    browser audit: score ${report.credit_score ?? '—'}, ${report.latency_ms} ms model time, ` +
      `${report.tokens.total_tokens} tokens, ${ms} ms on the page`);
    assertNoKey(assert, { page: await page.content(), report: reportText });
  });

  app.it('Extract: one low-confidence solution graded through the LLM fallback', { timeout: 5 * 60_000 }, async (page) => {
    await configure(app, page);
    await page.getByTestId('nav-extract').click();
    // The rules read the last number (2 friends): low confidence; the solution's answer is 8.
    await page.getByTestId('extract-text').fill('Tom had 5 apples and bought 3 more, so he had 8 apples. Then 2 friends came to visit him.');
    await page.getByTestId('extract-gold').fill('8');
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '2');
    assert.equal(await page.getByTestId('extract-verdict').getAttribute('data-outcome'), 'different');
    const started = Date.now();
    await page.getByTestId('fallback-ask').click();
    await page.locator('[data-testid="fallback-model-answer"], [data-testid="fallback-error"]').first().waitFor({ timeout: 4 * 60_000 });
    const ms = Date.now() - started;
    assert.equal(await page.getByTestId('fallback-error').count(), 0, 'the call succeeds');
    const reply = await page.getByTestId('fallback-reply').innerText();
    const answer = await page.getByTestId('fallback-model-answer').innerText();
    const cost = await page.getByTestId('fallback-cost').innerText();
    assert.match(cost, /^\d+ ms · [1-9]\d* tokens/);
    assert.ok(reply.length > 0 && reply.length < 400, `a short reply (30 tokens at most): ${reply}`);
    const used = await page.getByTestId('fallback-used').getAttribute('data-used');
    const outcome = used === 'model' ? await page.getByTestId('fallback-verdict').getAttribute('data-outcome') : 'rule answer kept';
    console.log(`    extract fallback: reply ${JSON.stringify(reply)} read as ${answer}; verdict ${outcome}; ${cost}; ${ms} ms on the page`);
    // The model's answer is used only when the text states it as one of its conclusions
    // (docs/extract.md, "LLM fallback": a value an instruction planted in the text is never
    // taken); "so he had 8 apples" is not read as a conclusion by the rules, so a correct
    // reply of 8 leaves the rules' answer in place, with the reply shown beside it.
    assert.ok(['model', 'rule'].includes(used), `the page says whose answer it used: ${used}`);
    assert.ok(/\d/.test(reply), `a readable answer in the reply: ${reply}`);
    // The rules' answer stays on the page next to the model's.
    assert.equal(await page.getByTestId('extract-answer').getAttribute('data-answer'), '2');
    assertNoKey(assert, { page: await page.content() });
  });
});
