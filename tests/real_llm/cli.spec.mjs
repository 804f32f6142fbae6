// The native CLI against a real llama.cpp server (tests/real_llm/run.mjs starts it): one audit,
// a 3-case batch, a wrong API key and a prompt over the context window. Only what a real model
// makes certain is asserted (the 1.5B model's verdicts are not): report shape, a 1–5 score or a
// typed "could not audit", latency and tokens recorded, the key in no output.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  KEY, TIMEOUT_S, settingsYaml, tempDir, exampleCases, runCli, checkReport, assertNoKey,
} from './real.mjs';

const LONG = { timeout: 15 * 60_000 };

function caseFiles(dir, c) {
  const context = path.join(dir, 'context.txt');
  const output = path.join(dir, 'output.txt');
  fs.writeFileSync(context, c.context_input);
  fs.writeFileSync(output, c.model_output);
  return { context, output };
}

function auditArgs(dir, files, extra = []) {
  const settings = path.join(dir, 'settings.yaml');
  if (!fs.existsSync(settings)) fs.writeFileSync(settings, settingsYaml());
  return ['audit', '--profile', 'real-full', '--settings', settings, '--context', files.context,
    '--output', files.output, '--report', path.join(dir, 'report.json'), '--timeout-s', String(TIMEOUT_S), ...extra];
}

describe('CLI against the real server', () => {
  it('audits one case: a 1–5 score or a typed "could not audit", latency and tokens, no key', LONG, async () => {
    const dir = tempDir();
    const [c] = exampleCases(1);
    const r = await runCli(auditArgs(dir, caseFiles(dir, c)));
    const reportText = fs.readFileSync(path.join(dir, 'report.json'), 'utf8');
    const report = JSON.parse(reportText);
    console.log(`    audit: exit ${r.code}, score ${report.credit_score ?? '—'}, ${report.latency_ms} ms model time, ` +
      `${report.tokens.total_tokens} tokens, ${r.ms} ms wall; ${report.number_grounding.numbers.length} numbers checked`);
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
    assert.equal(r.code === 0, report.credit_score !== null);
    checkReport(assert, report);
    // Case 1 copies its context's numbers: the deterministic check finds them all.
    assert.ok(report.number_grounding.numbers.length >= 4);
    assert.match(r.stderr, /number check: \d+ numbers?: /);
    assertNoKey(assert, { stdout: r.stdout, stderr: r.stderr, report: reportText });
  });

  it('runs a 3-case batch: every case scored or "could not audit", none missing, no key', LONG, async () => {
    const dir = tempDir();
    const cases = path.join(dir, 'cases.jsonl');
    fs.writeFileSync(cases, exampleCases(3).map((c) => JSON.stringify(c)).join('\n') + '\n');
    const settings = path.join(dir, 'settings.yaml');
    fs.writeFileSync(settings, settingsYaml());
    const out = path.join(dir, 'results.jsonl');
    // Concurrency 1: the server runs one request at a time (-np 1); queued calls would only
    // spend their timeout waiting.
    const r = await runCli(['batch', cases, '--settings', settings, '--profiles', 'real-full',
      '--concurrency', '1', '-o', out, '--timeout-s', String(TIMEOUT_S)]);
    assert.equal(r.code, 0, r.stderr);
    const text = fs.readFileSync(out, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.id), [1, 2, 3]);
    for (const l of lines) {
      if (l.credit_score === null) {
        assert.match(l.error, /^could not audit \(/);
      } else {
        assert.ok(l.credit_score >= 1 && l.credit_score <= 5);
        assert.equal(l.error, null);
      }
      assert.ok(l.latency_ms > 0 && l.tokens > 0, `case ${l.id}: latency and tokens`);
      assert.equal(l.models.run.model, 'qwen2.5-coder-1.5b-instruct');
      assert.ok(Number.isInteger(l.number_grounding.checked) && Array.isArray(l.number_grounding.not_found));
    }
    console.log(`    batch: ${lines.map((l) => `#${l.id} ${l.credit_score ?? 'could not audit'} (${l.latency_ms} ms, ${l.tokens} tok)`).join(', ')}; ${r.ms} ms wall`);
    assertNoKey(assert, { stdout: r.stdout, stderr: r.stderr, results: text });
  });

  it('a wrong API key gives the 401 message, and neither key reaches any output', LONG, async () => {
    const dir = tempDir();
    const [c] = exampleCases(1);
    const wrong = `${KEY}-wrong`;
    const r = await runCli(auditArgs(dir, caseFiles(dir, c)), { key: wrong });
    const reportText = fs.readFileSync(path.join(dir, 'report.json'), 'utf8');
    const report = JSON.parse(reportText);
    assert.equal(r.code, 1);
    assert.equal(report.credit_score, null);
    assert.equal(report.could_not_audit.phase, 'decompose');
    assert.match(report.could_not_audit.reason, /refused the API key \(HTTP 401\)/);
    assert.match(r.stderr, /could not audit \(Phase 1 · decomposition\).*refused the API key \(HTTP 401\)/);
    assertNoKey(assert, { stdout: r.stdout, stderr: r.stderr, report: reportText }, wrong);
    assertNoKey(assert, { stdout: r.stdout, stderr: r.stderr, report: reportText }, KEY);
  });

  it('a prompt over the context window fails at once with a clear message', LONG, async () => {
    const dir = tempDir();
    // ~12,000 tokens of context against the server's -c 8192.
    const sentence = 'In 2023 the plant in district 7 produced 4,200 tonnes of steel and employed 310 people. ';
    const c = { context_input: sentence.repeat(600), model_output: 'The plant produced 4,200 tonnes in 2023.' };
    const r = await runCli(auditArgs(dir, caseFiles(dir, c)));
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
    assert.equal(r.code, 1);
    assert.equal(report.could_not_audit.phase, 'decompose');
    assert.match(report.could_not_audit.reason,
      /HTTP 400: the prompt is longer than the model's context window \(\d+ prompt tokens, 8192 available\)/);
    // Final, not retried: one call.
    assert.equal(report.phases[0].calls, 1);
    assert.ok(r.ms < 120_000, `took ${r.ms} ms`);
    assertNoKey(assert, { stdout: r.stdout, stderr: r.stderr });
  });
});
