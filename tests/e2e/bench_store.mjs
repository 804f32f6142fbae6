// Measurement (not a timed test): how much the run store keeps per batch case now that each
// results line keeps its whole report (claims, findings, each phase's prompts and replies), and
// how long Compare takes to open one case of two such runs of `cases` cases.
//
// 1. Runs a cases file (default: the 12 bundled cases, public/examples/cases.jsonl) as a real
//    browser batch against the scripted server (tests/mock_llm), and reads the kept run back from
//    IndexedDB: bytes per line, with and without its report, and the transcript's share.
// 2. Repeats those lines to `cases` cases (new ids) and imports them twice on the Runs page,
//    reading navigator.storage.estimate() and the size of the profile's IndexedDB folder before
//    and after (a persistent profile: a fresh Playwright context keeps IndexedDB in memory).
// 3. Opens one case of the two big runs on Compare (both sides' lines read again from the store).
//
//   nice trunk build --release && node tests/e2e/bench_store.mjs [cases=1000] [cases.jsonl]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist, startMockLlm, ROOT } from './harness.mjs';

const N = Number(process.argv[2] ?? 1000);
const CASES = process.argv[3] ?? path.join(ROOT, 'public', 'examples', 'cases.jsonl');
const COUNT = fs.readFileSync(CASES, 'utf8').split('\n').filter((l) => l.trim()).length;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-bench-store-'));
const temp = (name, text) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f; };
const MB = (b) => `${(b / 1e6).toFixed(2)} MB`;
const KB = (b) => `${(b / 1e3).toFixed(1)} KB`;

// Replies of a usual length: one claim, one unsupported finding with an explanation.
const script = {
  rules: [
    { match_any: 'Do not judge correctness', reply: { claims: [{ id: 'C1', text: 'The output states the main figure of the context.' }, { id: 'C2', text: 'The output draws a conclusion from it.' }], deductions: [{ id: 'D1', premises: ['C1'], conclusion: 'The change is large.' }] } },
    { match_any: 'strict fact checker', reply: { factual_errors: [{ target: 'C2', type: 'unsupported', severity: 'High', evidence: '', explanation: 'The context gives the figure but not the conclusion the output draws from it; nothing in the context supports it.' }], reasonable_inferences: [] } },
    { match_any: 'strict logic checker', reply: { logic_errors: [] } },
  ],
};

const mock = await startMockLlm();
const server = await serveDist();
const profile = path.join(dir, 'profile');
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1280, height: 900 },
});
// Bytes of the files under the profile's IndexedDB folder (LevelDB and its blob files).
const onDisk = (d = path.join(profile, 'Default', 'IndexedDB')) => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true })
  .reduce((n, e) => n + (e.isDirectory() ? onDisk(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size), 0) : 0);
const settle = () => new Promise((r) => setTimeout(r, 3000));
try {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify(script) });
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  const usage = async () => (await page.evaluate(() => navigator.storage.estimate())).usage;

  await page.goto(`${server.url}/settings`);
  await page.getByTestId('settings-import').setInputFiles(temp('settings.yaml',
    `llms:\n  mock:\n    base_url: "${mock.baseUrl}"\n    model: "mock-model"\nprofiles:\n  p:\n    run: mock\n    verify: mock\n`));
  await page.getByTestId('settings-notice').filter({ hasText: '1 profiles' }).waitFor();
  await page.getByTestId('nav-audit').click();
  await page.getByTestId('batch-upload').setInputFiles(CASES);
  await page.getByTestId('batch-cases').filter({ hasText: `${COUNT} cases` }).waitFor();
  for (const box of await page.getByTestId('batch-profile').all()) await box.check();
  await page.getByTestId('batch-run').click();
  await page.getByTestId('batch-notice').filter({ hasText: `Done: ${COUNT} audited` }).waitFor({ timeout: 600_000 });
  const href = await page.getByTestId('batch-open-report').getAttribute('href');
  const runId = new URL(href, page.url()).searchParams.get('run');
  const stored = await page.evaluate(async (id) => {
    const db = await new Promise((res, rej) => { const r = indexedDB.open('verifyfast'); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    const v = await new Promise((res, rej) => { const r = db.transaction('results').objectStore('results').get(id); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    return typeof v === 'string' ? v : await v.text();
  }, runId);
  const lines = stored.trim().split('\n');
  const bytes = (s) => Buffer.byteLength(s, 'utf8');
  const total = lines.reduce((n, l) => n + bytes(l) + 1, 0);
  let withoutReport = 0; let transcript = 0; let texts = 0;
  for (const l of lines) {
    const v = JSON.parse(l);
    texts += bytes(JSON.stringify(v.context_input ?? '')) + bytes(JSON.stringify(v.model_output ?? ''));
    for (const p of v.audit_report?.phases ?? []) transcript += bytes(JSON.stringify(p.prompts ?? [])) + bytes(JSON.stringify(p.raw_responses ?? []));
    delete v.audit_report;
    withoutReport += bytes(JSON.stringify(v)) + 1;
  }
  const per = total / lines.length;
  console.log(`browser batch of ${lines.length} cases of ${path.basename(CASES)} (mock server): ${KB(per)} per kept line; ${KB(withoutReport / lines.length)} without its report; ` +
    `the report adds ${KB((total - withoutReport) / lines.length)}, of which the prompts and replies ${KB(transcript / lines.length)}; the case's own two texts ${KB(texts / lines.length)}`);

  // N cases: the 12 lines again and again under new ids, kept as two batch runs.
  const big = [];
  for (let i = 0; i < N; i++) {
    const v = JSON.parse(lines[i % lines.length]);
    v.id = `s${i + 1}`;
    if (i % 7 === 0) v.credit_score = v.credit_score === 5 ? 1 : 5;
    big.push(JSON.stringify(v));
  }
  const file = (name, id) => temp(`${id}.jsonl`, [JSON.stringify({ verifyfast_run: 1, id, name, kind: 'batch', created_ms: Date.now(), finished_ms: Date.now(), profiles: ['p'], result_count: N }), ...big].join('\n') + '\n');
  const bigBytes = big.reduce((n, l) => n + bytes(l) + 1, 0);
  await page.goto(`${server.url}/runs`);
  await page.getByTestId('page-runs').waitFor();
  await settle();
  const [before, diskBefore] = [await usage(), onDisk()];
  await page.getByTestId('runs-import').setInputFiles(file(`Bench ${N} A`, 'r-bench-a'));
  await page.getByTestId('runs-import-notice').filter({ hasText: `Bench ${N} A` }).waitFor({ timeout: 120_000 });
  await settle();
  const [afterOne, diskOne] = [await usage(), onDisk()];
  await page.getByTestId('runs-import').setInputFiles(file(`Bench ${N} B`, 'r-bench-b'));
  await page.getByTestId('runs-import-notice').filter({ hasText: `Bench ${N} B` }).waitFor({ timeout: 120_000 });
  await settle();
  const [afterTwo, diskTwo] = [await usage(), onDisk()];
  console.log(`${N} kept cases: results text ${MB(bigBytes)} (${KB(bigBytes / N)} per case)`);
  console.log(`  navigator.storage.estimate() grew by ${MB(afterOne - before)} for one run (${KB((afterOne - before) / N)} per case), ${MB(afterTwo - before)} for two`);
  console.log(`  the profile's IndexedDB folder grew by ${MB(diskOne - diskBefore)} for one run (${KB((diskOne - diskBefore) / N)} per case), ${MB(diskTwo - diskBefore)} for two`);

  // Compare the two big runs and open one case: both sides' lines read again from the store.
  await page.goto(`${server.url}/compare?ra=r-bench-a&rb=r-bench-b`);
  await page.getByTestId('compare-mcnemar').waitFor({ timeout: 120_000 });
  const times = [];
  for (const id of ['s1', 's8', `s${N}`]) {
    await page.getByTestId('compare-search').fill(id);
    const open = page.getByTestId('compare-open').filter({ hasText: new RegExp(`^${id}$`) });
    await open.waitFor();
    const t0 = Date.now();
    await open.click();
    await page.getByTestId('compare-case').filter({ hasText: `Case ${id}` }).getByTestId('compare-case-b').getByTestId('audit-finding').first().waitFor({ timeout: 60_000 });
    times.push(Date.now() - t0);
  }
  console.log(`open a case of two ${N}-case runs on Compare (click to both sides' findings): ${times.map((t) => `${t} ms`).join(', ')}`);
} finally {
  await browser.close();
  await server.close();
  mock.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
