// Browser grading throughput on a large file (a benchmark, not a test: it asserts nothing about
// time). The GSM8K fixture becomes a grade file (each solution without its #### line vs the ####
// value), repeated to LINES lines (default 52,311 = 7 × 7,473, about 30 MB), and is uploaded to the Extract
// page of the built app (dist/, as the e2e harness serves it) in headless Chromium.
//
//   nice trunk build --release && node tests/e2e/bench_grade.mjs [LINES]
//
// Prints the page's own figure (items graded per second of grading time, as the page shows it)
// and the wall-clock figure from picking the file to the summary on screen (reading the file in
// slices, grading and the first table page with KaTeX), and writes them to
// target/grade-throughput.txt.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launchBrowser, ROOT } from './harness.mjs';

const lines = Number(process.argv[2] ?? 7 * 7473);
if (!Number.isInteger(lines) || lines < 1) {
  console.error(`bench_grade: LINES must be a positive integer, got ${process.argv[2]}`);
  process.exit(2);
}
const fixture = fs.readFileSync(path.join(ROOT, 'tests', 'fixtures', 'gsm8k_train.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => {
    const { question, answer } = JSON.parse(l);
    const at = answer.lastIndexOf('####');
    return { output: answer.slice(0, at), ground_truth: answer.slice(at + 4).trim(), question };
  });
const out = [];
for (let i = 0; i < lines; i++) out.push(JSON.stringify({ id: i + 1, ...fixture[i % fixture.length] }));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-bench-grade-'));
const file = path.join(dir, 'gsm8k-grade-large.jsonl');
fs.writeFileSync(file, out.join('\n') + '\n');
const bytes = fs.statSync(file).size;

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}/extract`);
  await page.getByTestId('page-extract').waitFor();
  const t0 = Date.now();
  await page.getByTestId('extract-file').setInputFiles(file);
  const timing = page.getByTestId('extract-timing');
  await timing.waitFor({ timeout: 600_000 });
  await page.getByTestId('extract-table').locator('tbody tr').first().waitFor();
  const wallMs = Date.now() - t0;
  const perSecond = Number(await timing.getAttribute('data-items-per-second'));
  const accuracy = await page.getByTestId('extract-accuracy').innerText();
  const report = [
    `browser grade (headless Chromium, release wasm): ${lines} lines (${(bytes / 1e6).toFixed(1)} MB), GSM8K fixture repeated`,
    `  grading: ${perSecond} items/s (${await timing.innerText()})`,
    `  wall clock, file picked to table shown: ${wallMs} ms = ${Math.round((lines * 1000) / wallMs)} items/s`,
    `  accuracy ${accuracy}`,
  ].join('\n');
  console.log(report);
  fs.mkdirSync(path.join(ROOT, 'target'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'target', 'grade-throughput.txt'), `${new Date().toISOString()}\n${report}\n`);
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
