// Proof page: load the seed example, step to GOAL_PROVED, KaTeX rendered, DAG highlights premises.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './harness.mjs';

describe('proof page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('steps the seed example to GOAL_PROVED with KaTeX and a highlighted DAG', async (page) => {
    await app.goto('/proof');
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-event').waitFor();
    let seen = '';
    for (let i = 0; i < 40 && !seen.includes('GOAL_PROVED'); i++) {
      await page.getByTestId('proof-next').click();
      seen = await page.getByTestId('proof-event').innerText();
    }
    assert.match(seen, /GOAL_PROVED/);
    assert.match(await page.getByTestId('proof-goals').innerText(), /proved by C-004/);
    assert.ok(await page.locator('[data-testid="proof-goals"] .katex').count() > 0, 'goal rendered by KaTeX');
    // Step back to the ACCEPTED of C-004: its premises C-001 and C-003 are highlighted.
    await page.getByTestId('proof-prev').click();
    const dag = page.getByTestId('proof-dag');
    assert.equal(await dag.locator('g[data-id="C-004"]').getAttribute('data-mark'), 'current');
    assert.equal(await dag.locator('g[data-id="C-001"]').getAttribute('data-mark'), 'premise');
    assert.equal(await dag.locator('g[data-id="C-003"]').getAttribute('data-mark'), 'premise');
    await page.getByTestId('proof-first').click();
    assert.match(await page.getByTestId('proof-event').innerText(), /Step 0/);
    await page.getByTestId('proof-last').click();
    assert.match(await page.getByTestId('proof-event').innerText(), /GOAL_PROVED/);
  });
});
