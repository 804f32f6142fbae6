// Proof page: load the seed example, step to GOAL_PROVED, KaTeX rendered, DAG highlights premises;
// the keyboard right after a pick, DAG clicks, the Fitch view following the stepper, the LaTeX and
// Markdown exports, the action form's live feedback, dark-theme DAG contrast; and, when `cargo bench --bench logic` has written its logs, the browser figures for loading a
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
    assert.equal(await dag.locator('[data-id="C-004"]').getAttribute('data-mark'), 'current');
    assert.equal(await dag.locator('[data-id="C-001"]').getAttribute('data-mark'), 'premise');
    assert.equal(await dag.locator('[data-id="C-003"]').getAttribute('data-mark'), 'premise');
    assert.ok(await dag.locator('[data-id="C-004"] .katex').count() > 0, 'DAG node rendered by KaTeX');
    await page.getByTestId('proof-first').click();
    assert.match(await page.getByTestId('proof-event').innerText(), /Step 0/);
    await page.getByTestId('proof-last').click();
    assert.match(await page.getByTestId('proof-event').innerText(), /GOAL_PROVED/);
  });

  /** Pick the seed example in the picker and wait until its stepper is ready. */
  async function pickSeed(page) {
    await app.goto('/proof');
    // Focused as after a mouse pick, so the test sees where focus goes afterwards.
    await page.getByTestId('proof-example').focus();
    await page.getByTestId('proof-example').selectOption('seed');
    await page.getByTestId('proof-step-label').filter({ hasText: '0 / 9' }).waitFor();
  }
  const label = (page) => page.getByTestId('proof-step-label').innerText();

  app.it('steps with the keyboard right after picking an example', async (page) => {
    await pickSeed(page);
    // Focus left the picker: → steps the proof instead of picking the next example.
    assert.notEqual(await page.evaluate(() => document.activeElement?.dataset?.testid), 'proof-example');
    await page.keyboard.press('ArrowRight');
    assert.equal(await label(page), '1 / 9');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await label(page), '3 / 9');
    assert.equal(await page.getByTestId('proof-example').inputValue(), 'seed', 'still the seed example');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await label(page), '2 / 9');
    await page.keyboard.press('End');
    assert.equal(await label(page), '9 / 9');
    assert.match(await page.getByTestId('proof-event').innerText(), /GOAL_PROVED/);
    await page.keyboard.press('Home');
    assert.equal(await label(page), '0 / 9');
    // Space plays and pauses.
    await page.keyboard.press(' ');
    assert.equal(await page.getByTestId('proof-play').innerText(), 'Pause');
    await page.getByTestId('proof-step-label').filter({ hasText: /^[1-9] \/ 9$/ }).waitFor({ timeout: 5000 });
    await page.keyboard.press(' ');
    assert.equal(await page.getByTestId('proof-play').innerText(), 'Autoplay');
    // Typing in a text field does not step.
    const at = await label(page);
    await page.getByTestId('proof-form-latex').fill('P');
    await page.getByTestId('proof-form-latex').press('ArrowLeft');
    await page.getByTestId('proof-form-latex').press('End');
    assert.equal(await label(page), at);
  });

  app.it('a click on a DAG node lands on the step that proposed it; the current node stays in view', async (page) => {
    await pickSeed(page);
    await page.keyboard.press('End');
    const dag = page.getByTestId('proof-dag');
    await dag.locator('[data-id="C-002"]').click();
    assert.equal(await label(page), '3 / 9');
    const card = await page.getByTestId('proof-event').innerText();
    assert.match(card, /PROPOSAL/);
    assert.match(card, /proposes C-002/);
    assert.equal(await dag.locator('[data-id="C-002"]').getAttribute('data-mark'), 'current');
    // A hypothesis goes to step 0.
    await dag.locator('[data-id="H-1"]').click();
    assert.equal(await label(page), '0 / 9');
    // Zoomed in, the current node is still scrolled into the DAG's box.
    await page.keyboard.press('End');
    for (let i = 0; i < 2; i++) await page.getByTestId('proof-dag-zoom-in').click();
    await page.waitForTimeout(100);
    const inside = await page.evaluate(() => {
      const box = document.querySelector('.proof-dag-wrap').getBoundingClientRect();
      const node = document.querySelector('.dag-node.current').getBoundingClientRect();
      return node.top >= box.top - 1 && node.bottom <= box.bottom + 1 && node.left >= box.left - 1 && node.right <= box.right + 1;
    });
    assert.ok(inside, 'current DAG node inside its scroll box');
  });

  app.it('the Fitch view follows the stepper, with subproofs and refused lines in place', async (page) => {
    await pickSeed(page);
    const fitch = page.getByTestId('proof-fitch');
    const current = () => fitch.locator('.fitch-line.current').getAttribute('data-id');
    assert.equal(await fitch.locator('.fitch-line.current').count(), 0);
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(), 'C-001');
    assert.match(await fitch.locator('[data-id="C-001"]').innerText(), /pending/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(), 'C-001');
    assert.doesNotMatch(await fitch.locator('[data-id="C-001"]').innerText(), /pending/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(), 'C-002');
    await page.keyboard.press('End');
    assert.equal(await current(), 'C-004');
    // Numbered lines, rule and citations as line numbers: C-004 is line 7, by →E from 4 and 6.
    const last = await fitch.locator('[data-id="C-004"]').innerText();
    assert.match(last, /^7/);
    assert.match(last, /→E 4, 6/);
    assert.ok(await fitch.locator('[data-id="C-004"] .katex').count() > 0, 'Fitch formula rendered by KaTeX');
    // A click on a line jumps too.
    await fitch.locator('[data-id="C-003"]').click();
    assert.equal(await label(page), '5 / 9');
    // Subproofs: ∃E's assumption opens an indented subproof; a refused step shows its reason.
    await page.getByTestId('proof-example').selectOption('exists-unique');
    await page.getByTestId('proof-step-label').filter({ hasText: /^0 \// }).waitFor();
    await page.keyboard.press('End');
    assert.equal(await fitch.locator('[data-id="A-1"] .fitch-bar').count(), 2);
    assert.equal(await fitch.locator('[data-id="A-2"] .fitch-bar').count(), 3);
    assert.match(await fitch.locator('.fitch-line').last().innerText(), /∃E 1, 2–12/);
    await page.getByTestId('proof-example').selectOption('wrong-instantiation');
    await page.getByTestId('proof-step-label').filter({ hasText: /^0 \// }).waitFor();
    await page.keyboard.press('End');
    const refused = fitch.locator('.fitch-line.rejected').first();
    assert.match(await refused.innerText(), /rejected[\s\S]*invalid_derivation/);
    // Messages keep the ids as written.
    assert.match(await fitch.locator('.fitch-line.blocked').first().innerText(), /C-\d{3}/);
    // The current line is scrolled into the Fitch box.
    const inside = await page.evaluate(() => {
      const box = document.querySelector('.fitch-scroll').getBoundingClientRect();
      const line = document.querySelector('.fitch-line.current')?.getBoundingClientRect();
      return !line || (line.top >= box.top - 1 && line.bottom <= box.bottom + 1);
    });
    assert.ok(inside, 'current Fitch line inside its scroll box');
  });

  app.it('exports the Fitch proof as LaTeX (fitch.sty) and Markdown', async (page) => {
    await pickSeed(page);
    await page.keyboard.press('End');
    const read = async (testid) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
      return fs.readFileSync(await download.path(), 'utf8');
    };
    const tex = await read('proof-export-latex');
    const count = (re) => (tex.match(re) ?? []).length;
    assert.equal(count(/\\begin\{nd\}/g), 1);
    assert.equal(count(/\\end\{nd\}/g), 1);
    assert.equal(count(/\\begin\{document\}/g), count(/\\end\{document\}/g));
    assert.equal(count(/\\open\b/g), count(/\\close\b/g));
    assert.match(tex, /\\usepackage\{fitch\}/);
    const lines = tex.split('\n').map((l) => l.trim()).filter((l) => /^\\(hypo|have)\{/.test(l));
    // One line per accepted line of the proof, numbered 1..n, citing earlier lines only.
    const shown = await page.locator('[data-testid="proof-fitch"] .fitch-line:is(.hypothesis, .accepted)').count();
    assert.equal(lines.length, shown);
    lines.forEach((l, i) => {
      assert.ok(l.startsWith(`\\hypo{${i + 1}}`) || l.startsWith(`\\have{${i + 1}}`), l);
      const by = l.match(/\\by\{[^}]*\}\{([^}]*)\}$/);
      if (l.startsWith('\\have')) assert.ok(by, `a derived line has \\by: ${l}`);
      for (const n of (by?.[1] ?? '').split(/[,-]/).filter(Boolean)) assert.ok(Number(n) >= 1 && Number(n) <= i, l);
    });
    assert.equal(lines[6], '\\have{7}{a + b > 0} \\by{$\\to$E}{4,6}');
    // Balanced braces outside escapes.
    const bare = tex.replace(/\\[{}]/g, '');
    assert.equal((bare.match(/\{/g) ?? []).length, (bare.match(/\}/g) ?? []).length);
    const md = await read('proof-export-markdown');
    assert.equal(md.split('\n').filter((l) => /^\| \d+ \|/.test(l)).length, shown);
    assert.match(md, /\| 7 \| \$a \+ b > 0\$ \| →E 4, 6 \|/);
  });

  app.it('the action form parses while you type and explains the picked rule', async (page) => {
    await pickSeed(page);
    const form = page.getByTestId('proof-form');
    await page.getByLabel('Conclusion (LaTeX)').fill('a > 0 \\land');
    assert.match(await form.getByTestId('proof-form-parse').innerText(), /does not parse, at character \d+/);
    await page.getByLabel('Conclusion (LaTeX)').fill('a > 0 \\land b > 0');
    assert.match(await form.getByTestId('proof-form-parse').innerText(), /parses as a > 0 ∧ b > 0/);
    await page.getByLabel('Rule').selectOption('imp_intro');
    assert.match(await form.getByTestId('proof-form-rule-help').innerText(), /imp_intro: cites 2; citation 1 must be an assumption/);
    await page.getByLabel('Rule').selectOption('imp_elim');
    assert.match(await form.getByTestId('proof-form-rule-help').innerText(), /also modus_ponens/);
    for (const l of ['Agent', 'Action', 'Premises (ids, comma-separated)', 'Base (extend) / proposal (accept) / target (refute) id']) {
      assert.equal(await page.getByLabel(l, { exact: false }).count(), 1, l);
    }
  });

  app.it('dark theme: DAG node text has WCAG AA contrast against the node fill', async (page) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await pickSeed(page);
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await page.keyboard.press('ArrowRight');
    const result = await page.evaluate(() => {
      const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      const body = getComputedStyle(document.body).backgroundColor;
      const rows = [...document.querySelectorAll('[data-testid="proof-dag"] .dag-node')].flatMap((node) => {
        const fill = getComputedStyle(node).backgroundColor;
        const alpha = rgb(fill)[3] ?? 1;
        return [node, node.querySelector('.dag-id'), node.querySelector('.katex')].filter(Boolean).map((el) => ({
          id: node.dataset.id, part: el.className, color: getComputedStyle(el).color, fill, alpha, ratio: ratio(getComputedStyle(el).color, fill),
        }));
      });
      return { bodyLum: lum(rgb(body)), rows };
    });
    assert.ok(result.bodyLum < 0.05, `dark theme in effect (body luminance ${result.bodyLum})`);
    assert.ok(result.rows.length >= 6, 'nodes measured');
    for (const r of result.rows) {
      assert.equal(r.alpha, 1, `opaque fill for ${r.id}`);
      assert.ok(r.ratio >= 4.5, `${r.id} ${r.part}: ${r.color} on ${r.fill} is ${r.ratio.toFixed(2)}:1`);
    }
    console.log(`dark-theme DAG contrast: min ${Math.min(...result.rows.map((r) => r.ratio)).toFixed(2)}:1 over ${result.rows.length} node texts`);
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
