// Proof page, live mode: two LLM researchers (scripted mock server) take turns; the engine
// refuses a bad citation, feeds the verdict back, and the mended step is accepted by the
// other researcher, proving the goal. The stepper follows the run.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm } from './harness.mjs';

const PROBLEM = JSON.stringify({
  id: 'and', title: 'A and B',
  hypotheses: [{ id: 'H-1', latex: 'A' }, { id: 'H-2', latex: 'B' }],
  goals: [{ id: 'G-1', latex: 'A \\land B' }],
  agents: ['researcher-1', 'researcher-2'],
  actions: [],
});

const derive = (premises) => JSON.stringify({ actionType: 'derive', params: { conclusion: 'A \\land B', premises, rule: 'and_intro' } });

/** Settings with the mock as the profile's verify model, the problem pasted on Proof, Run pressed. */
async function startResearch(app, page, mock) {
  await app.goto('/settings');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-research-'));
  const settings = path.join(dir, 'settings.yaml');
  fs.writeFileSync(settings, `defaults:\n  max_tokens: 500\n  temperature: 0\nllms:\n  mock:\n    base_url: "${mock.baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`);
  await page.getByTestId('settings-import').setInputFiles(settings);
  await page.getByTestId('settings-notice').waitFor();
  await page.getByRole('link', { name: 'Proof' }).click();
  await page.getByTestId('page-proof').waitFor();
  await page.getByTestId('proof-paste').locator('xpath=..').locator('summary').click();
  await page.getByTestId('proof-paste').fill(PROBLEM);
  await page.getByTestId('proof-paste-load').click();
  await page.getByTestId('proof-research').locator('summary').click();
  await page.getByTestId('proof-research-run').click();
}

describe('proof page: LLM researchers', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });
  let mock;
  before(async () => {
    mock = await startMockLlm(['--script-json', JSON.stringify({
      rules: [
        { match_any: 'You are researcher-1', times: 1, reply: derive(['H-1', 'H-9']) },
        // Unreadable, and unreadable again when asked once more (docs/llm.md, "Reading
        // replies"): the turn is an unreadable reply.
        { match_any: 'You are researcher-2', times: 2, reply: 'Nothing to accept yet.' },
        { match_any: 'You are researcher-1', times: 1, reply: derive(['H-1', 'H-2']) },
        { match_any: 'You are researcher-2', times: 1, reply: JSON.stringify({ actionType: 'accept', params: { proposalId: 'C-002' } }) },
      ],
      default_reply: '{}',
    })]);
  });
  after(() => mock?.stop());

  app.it('refused step is fed back, mended, accepted by the other researcher, goal proved', async (page) => {
    await startResearch(app, page, mock);
    await page.getByTestId('proof-research-status').filter({ hasText: 'every goal proved' }).waitFor({ timeout: 20_000 });

    const turns = await page.getByTestId('proof-research-turns').locator('li').allInnerTexts();
    assert.equal(turns.length, 4, turns.join('\n'));
    assert.match(turns[0], /missing_premise.*H-9/);
    assert.match(turns[1], /unreadable reply/);
    assert.match(turns[2], /derive → C-002/);
    assert.match(turns[3], /accept → C-002/);
    assert.match(await page.getByTestId('proof-goals').innerText(), /proved/i);
    assert.match(await page.getByTestId('proof-event').innerText(), /GOAL_PROVED/);

    const log = await (await fetch(`${mock.url}/__log`)).json();
    const r1 = log.requests
      .filter((r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes('You are researcher-1'));
    assert.ok(r1.length >= 2, `researcher-1 asked twice: ${r1.length}`);
    assert.doesNotMatch(JSON.stringify(r1[0].body), /REFUSED/);
    assert.match(JSON.stringify(r1[1].body), /REFUSED/, 'the rejection reached researcher-1 on its next turn');
  });
});

describe('proof page: leaving stops the researchers', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });
  let mock;
  before(async () => {
    // Every turn is slow, so the run is still going when the user leaves.
    mock = await startMockLlm(['--script-json', JSON.stringify({
      rules: [{ match_any: 'You are researcher', reply: 'Nothing yet.', latency_ms: 2500 }],
      default_reply: '{}',
    })]);
  });
  after(() => mock?.stop());

  const chats = async () => (await (await fetch(`${mock.url}/__log`)).json()).requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));

  app.it('the in-flight call is aborted and no further turn is asked for', async (page) => {
    await startResearch(app, page, mock);
    while ((await chats()).length < 1) await page.waitForTimeout(50);
    await page.getByTestId('nav-audit').click();
    await page.getByTestId('page-audit').waitFor();
    // The first turn would have answered after 2.5 s and the next researcher been asked.
    await page.waitForTimeout(4000);
    assert.equal((await chats()).length, 1, 'leaving the page stopped the run');
  });
});
