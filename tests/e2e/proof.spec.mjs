// Proof page: load the seed example, step to GOAL_PROVED, KaTeX rendered, DAG highlights premises;
// and, when `cargo bench --bench logic` has written its logs, the browser figures for loading a
// 100,000-event log and jumping around a 1,000-event one.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useApp, ROOT } from './harness.mjs';

const BIG_LOG = path.join(ROOT, 'target', 'bench-logic', 'log-100000.json');
const SMALL_LOG = path.join(ROOT, 'target', 'bench-logic', 'log-1000.json');
const NO_LOGS = !(fs.existsSync(BIG_LOG) && fs.existsSync(SMALL_LOG)) && 'run `cargo bench --bench logic` first to write the logs';

/** Load a log file and wait until the stepper shows `0 / n`; returns the seconds it took. */
async function loadLog(page, file, n) {
  const t0 = Date.now();
  await page.getByTestId('proof-file').setInputFiles(file);
  await page.getByTestId('proof-step-label').filter({ hasText: `/ ${n}` }).waitFor({ timeout: 120_000 });
  return (Date.now() - t0) / 1000;
}

/**
 * Jump the slider to each step in `targets`. For each jump, timed in the page from the input
 * event: `app`, until the event card shows that step (the app's own work: replay, views, DOM
 * writes); `frame`, until the next frame after that has been produced (adds the browser's
 * style, layout and paint, and up to one frame interval of waiting for vsync). Returns both
 * lists in ms.
 */
function timeJumps(page, targets) {
  return page.evaluate(async (targets) => {
    const slider = document.querySelector('[data-testid="proof-step"]');
    const card = document.querySelector('[data-testid="proof-event"]');
    const app = [];
    const frame = [];
    for (const to of targets) {
      const want = `Step ${to} of`;
      await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now();
      slider.value = String(to);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      // Leptos applies the change in microtasks: spin on them, not on timers, so no
      // timer or frame wait is counted as the app's time.
      for (let spins = 0; !card.textContent.includes(want) && spins < 1e6; spins++) await null;
      app.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      frame.push(performance.now() - t0);
    }
    return { app, frame };
  }, targets);
}

const stats = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, median: sorted[Math.floor(sorted.length / 2)], worst: sorted[sorted.length - 1] };
};

/** Scattered but fixed targets in 1..=n. */
const scattered = (n, count) => {
  const out = [];
  let p = 1;
  for (let i = 0; i < count; i++) { p = (p * 7919 + 13) % (n + 1); out.push(p === 0 ? 1 : p); }
  return out;
};

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

  app.it('browser figures: load a 100,000-event log, jump around it and a 1,000-event log', { skip: NO_LOGS, timeout: 300_000 }, async (page) => {
    await app.goto('/proof');
    const loadBig = await loadLog(page, BIG_LOG, 100000);
    const bigNotice = await page.getByTestId('proof-notice').innerText();
    assert.match(bigNotice, /100000 events \(JSON \d+ ms, replay and snapshots \d+ ms\)/);
    // A huge world is drawn in part, and each panel lists the newest rows.
    const big = await timeJumps(page, scattered(100000, 10));
    await page.getByTestId('proof-last').click();
    assert.match(await page.getByTestId('proof-dag-hidden').innerText(), /others not drawn/);
    assert.ok(await page.locator('[data-testid="proof-accepted"] li').count() <= 20, 'accepted panel capped');
    assert.match(await page.getByTestId('proof-accepted').innerText(), /earlier not shown/);

    const loadSmall = await loadLog(page, SMALL_LOG, 1000);
    const jumps = await timeJumps(page, scattered(1000, 100));
    // The everyday case: stepping forward one event at a time.
    const forward = await timeJumps(page, Array.from({ length: 100 }, (_, i) => 400 + i));
    const fmt = (xs) => { const s = stats(xs); return `mean ${s.mean.toFixed(1)} ms, median ${s.median.toFixed(1)} ms, worst ${s.worst.toFixed(1)} ms`; };
    console.log(`proof page, 100,000-event log (${(fs.statSync(BIG_LOG).size / 1e6).toFixed(1)} MB): upload to stepper ready ${loadBig.toFixed(2)} s [${bigNotice.replace(/^.*\(/, '').replace(/\)$/, '')}]; random step jump: app ${fmt(big.app)}; to next frame ${fmt(big.frame)}`);
    console.log(`proof page, 1,000-event log (loaded in ${loadSmall.toFixed(2)} s): random step jump, 100 jumps: app ${fmt(jumps.app)}; to next frame ${fmt(jumps.frame)} [target < 16 ms]`);
    console.log(`proof page, 1,000-event log: one step forward, 100 steps: app ${fmt(forward.app)}; to next frame ${fmt(forward.frame)}`);
    assert.match(await page.getByTestId('proof-step-label').innerText(), /\/ 1000/);
  });
});
