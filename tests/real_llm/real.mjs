// Shared by the real-server specs: where the server is (started by tests/real_llm/run.mjs or
// given by the caller), the settings that point at it, and helpers to run the CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT } from '../e2e/harness.mjs';

export { ROOT };
export const BASE_URL = process.env.VERIFYFAST_REAL_LLM_URL ?? '';
export const KEY = process.env.VERIFYFAST_REAL_LLM_KEY ?? '';
export const MODEL = process.env.VERIFYFAST_REAL_LLM_MODEL ?? 'qwen2.5-coder-1.5b-instruct';
export const BIN = process.env.VERIFYFAST_BIN
  ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'debug', 'verifyfast');
/** The variable the CLI reads the key from (settings `api_key_env`). */
export const KEY_ENV = 'VF_REAL_LLM_KEY';
/** Generous per-call timeout: a 2-core machine shared with builds can be slow. */
export const TIMEOUT_S = 300;

if (!BASE_URL) throw new Error('VERIFYFAST_REAL_LLM_URL is not set: run these specs through tests/real_llm/run.mjs');

/**
 * settings.yaml for the real server. max_tokens bounds each reply (~15 tokens/s here), so a
 * rambling model cannot make one call last minutes.
 */
export function settingsYaml({ maxTokens = 700 } = {}) {
  return `defaults:\n  max_tokens: ${maxTokens}\n  temperature: 0.1\nllms:\n  real:\n    base_url: "${BASE_URL}"\n    model: "${MODEL}"\n    json_mode: json_object\n    api_key_env: ${KEY_ENV}\nprofiles:\n  real-full:\n    run: real\n    verify: real\n`;
}

export function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vf-real-llm-'));
}

/** The first `n` example cases (public/examples/cases.jsonl): short, Chinese and English. */
export function exampleCases(n) {
  return fs.readFileSync(path.join(ROOT, 'public', 'examples', 'cases.jsonl'), 'utf8')
    .split('\n').filter((l) => l.trim()).slice(0, n).map((l) => JSON.parse(l));
}

/** Run the CLI; resolves { code, stdout, stderr, ms }. */
export function runCli(args, { key = KEY } = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { env: { ...process.env, [KEY_ENV]: key }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    // Echo the CLI's progress line by line, so a slow run shows where it is.
    let pending = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const l of lines) process.stderr.write(`    [cli] ${l}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/**
 * What a real model makes certain about one audit report: a 1–5 score with its band, or a
 * typed "could not audit" naming a phase and a reason; latency and tokens recorded for every
 * phase that got a reply; the number check present.
 */
export function checkReport(assert, report) {
  const bands = { 1: 'BAD', 2: 'BAD', 3: 'MID', 4: 'GOOD', 5: 'GOOD' };
  if (report.credit_score === null || report.credit_score === undefined) {
    assert.ok(report.could_not_audit, 'no score and no could_not_audit');
    assert.match(report.could_not_audit.phase, /^(decompose|fact_check|logic_check|reverse_check)$/);
    assert.ok(report.could_not_audit.reason.length > 0);
    assert.equal(report.band, null);
  } else {
    assert.ok(Number.isInteger(report.credit_score) && report.credit_score >= 1 && report.credit_score <= 5,
      `score ${report.credit_score}`);
    assert.equal(report.band, bands[report.credit_score]);
    assert.equal(report.could_not_audit, undefined);
  }
  assert.ok(report.phases.length >= 1);
  for (const p of report.phases) {
    if (p.raw_responses.length > 0) {
      assert.ok(p.latency_ms > 0, `${p.phase}: latency recorded`);
      assert.ok(p.tokens.total_tokens > 0, `${p.phase}: tokens recorded`);
    }
  }
  assert.ok(report.latency_ms > 0);
  assert.ok(report.tokens.total_tokens > 0);
  assert.equal(report.models.run.model, MODEL);
  assert.ok(Array.isArray(report.number_grounding?.numbers));
}

/** The key must appear in no output: stdout, stderr, reports, results. */
export function assertNoKey(assert, texts, key = KEY) {
  for (const [name, text] of Object.entries(texts)) {
    assert.ok(!String(text).includes(key), `the API key appears in ${name}`);
  }
}
