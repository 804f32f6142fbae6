// The real-server tier: starts llama.cpp's llama-server through scripts/real-llm (installing it
// on first use, into ~/.cache/verifyfast/) with a fresh API key on a free port, runs
// tests/real_llm/*.spec.mjs against it, stops it, and writes the line scripts/test prints:
// "real-llm: N passed, M failed in S s". VERIFYFAST_SKIP_REAL_LLM=1 skips the tier (the line then
// says so). With VERIFYFAST_REAL_LLM_URL (and _KEY) set, that server is used instead.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const summaryFile = path.join(root, 'target', 'real-llm-summary.txt');
fs.mkdirSync(path.dirname(summaryFile), { recursive: true });
const started = Date.now();
const finish = (line, code) => {
  fs.writeFileSync(summaryFile, line + '\n');
  console.log(line);
  process.exit(code);
};

if (process.env.VERIFYFAST_SKIP_REAL_LLM === '1') {
  finish('real-llm: skipped (VERIFYFAST_SKIP_REAL_LLM=1)', 0);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

let serverPid = null;
const env = { ...process.env };
if (!env.VERIFYFAST_REAL_LLM_URL) {
  const port = await freePort();
  env.VERIFYFAST_REAL_LLM_KEY = `vf-real-${crypto.randomBytes(12).toString('hex')}`;
  // The key reaches the script through its environment, never its argv (visible in `ps`).
  const r = spawnSync(path.join(root, 'scripts', 'real-llm'), ['--port', String(port)], {
    env: { ...env, VERIFYFAST_LLM_KEY: env.VERIFYFAST_REAL_LLM_KEY }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8',
  });
  const url = (r.stdout.match(/^url=(.*)$/m) ?? [])[1];
  serverPid = Number((r.stdout.match(/^pid=(\d+)$/m) ?? [])[1]) || null;
  if (r.status !== 0 || !url) {
    finish(`real-llm: 0 passed, 1 failed (scripts/real-llm exited ${r.status}: no server) in ${Math.round((Date.now() - started) / 1000)} s`, 1);
  }
  env.VERIFYFAST_REAL_LLM_URL = url;
}
const stopServer = () => { if (serverPid) { try { process.kill(serverPid); } catch { /* already gone */ } serverPid = null; } };
process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stopServer(); process.exit(130); });

const only = process.argv.slice(2);
const specs = only.length ? only : fs.readdirSync(here).filter((f) => f.endsWith('.spec.mjs')).sort().map((f) => path.join(here, f));
const tap = path.join(root, 'target', 'real-llm.tap');
const testsStarted = Date.now();
const child = spawn(process.execPath, ['--test', '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...specs], { stdio: 'inherit', cwd: root, env });
const status = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
stopServer();
const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
const secs = (t) => Math.round((Date.now() - t) / 1000);
finish(`real-llm: ${num('pass')} passed, ${num('fail') + num('cancelled')} failed in ${secs(started)} s (tests ${secs(testsStarted)} s)`, status);
