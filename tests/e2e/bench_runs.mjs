// Measurement (not a timed test): how long a 50,000-result batch run takes to open from the
// run store on Report. Generates a run file (the Runs page's export format), imports it on
// Runs, then clicks its "Open" link and times the band report's appearance; a second figure
// opens it by URL after a reload (the wasm start-up included).
//
//   nice trunk build --release && node tests/e2e/bench_runs.mjs [results=50000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launchBrowser, ROOT } from './harness.mjs';

const N = Number(process.argv[2] ?? 50_000);
const cases = fs.readFileSync(path.join(ROOT, 'public', 'examples', 'cases.jsonl'), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l));

// Result lines shaped like the browser batch's (case fields + the audit's summary fields).
let seed = 42;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const bands = ['BAD', 'BAD', 'MID', 'GOOD', 'GOOD'];
const lines = [];
for (let i = 0; i < N; i++) {
  const c = cases[i % cases.length];
  const score = 1 + Math.floor(rand() * 5);
  lines.push(JSON.stringify({
    ...c, id: i + 1, profile: i % 2 ? 'p-cross' : 'p-self', credit_score: score, band: bands[score - 1],
    high_count: score < 3 ? 1 : 0, low_count: score === 3 ? 1 : 0,
    errors: score < 3 ? [{ target: 'C1', type: 'unsupported', severity: 'High', evidence: c.model_output.slice(0, 20), explanation: 'not in the context' }] : [],
    number_grounding: { summary: '2 numbers, all found', not_found: [] },
    latency_ms: 1000 + Math.floor(rand() * 4000), tokens: 900 + Math.floor(rand() * 600),
    models: { run: { model: 'm-run' }, verify: { model: 'm-verify' } }, error: null,
  }));
}
const header = {
  verifyfast_run: 1, id: 'r-bench-50k', name: `Bench batch of ${N}`, kind: 'batch',
  created_ms: Date.now(), finished_ms: Date.now() + 3_600_000, profiles: ['p-self', 'p-cross'],
  settings: null, strategy: null, inputs: { file: 'bench.jsonl', cases: N / 2 }, result_count: N,
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-bench-'));
const file = path.join(dir, 'bench.run.jsonl');
fs.writeFileSync(file, `${JSON.stringify(header)}\n${lines.join('\n')}\n`);
const mb = fs.statSync(file).size / 1e6;

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${server.url}/runs`);
  await page.getByTestId('page-runs').waitFor();
  let t0 = Date.now();
  await page.getByTestId('runs-import').setInputFiles(file);
  await page.getByTestId('runs-import-notice').waitFor({ timeout: 300_000 });
  const importMs = Date.now() - t0;
  await page.getByTestId('run-row').first().waitFor();
  const id = await page.getByTestId('run-row').first().getAttribute('data-run-id');

  const times = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`${server.url}/runs`);
    await page.getByTestId('run-row').first().waitFor();
    t0 = Date.now();
    await page.locator(`[data-run-id="${id}"] [data-testid="run-open"]`).click();
    await page.getByTestId('report-matrix').waitFor({ timeout: 120_000 });
    times.push(Date.now() - t0);
  }
  const total = (await page.locator('[data-testid="report-matrix"] strong').allInnerTexts()).map(Number).reduce((a, b) => a + b, 0);
  t0 = Date.now();
  await page.reload();
  await page.getByTestId('report-matrix').waitFor({ timeout: 120_000 });
  const reloadMs = Date.now() - t0;
  const best = Math.min(...times);
  console.log(`run file: ${N} results, ${mb.toFixed(1)} MB; matrix total ${total}`);
  console.log(`import on Runs: ${(importMs / 1000).toFixed(2)} s`);
  console.log(`open from the store on Report (Runs → Open, click to band matrix): ${times.map((t) => (t / 1000).toFixed(2)).join(' s, ')} s (best ${(best / 1000).toFixed(2)} s)`);
  console.log(`open by URL after a reload (wasm start-up included): ${(reloadMs / 1000).toFixed(2)} s`);
  console.log(best < 2000 ? 'under 2 s: yes' : 'under 2 s: NO');
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
