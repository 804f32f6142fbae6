// Browser test harness: serves dist/ on a free localhost port (with the SPA fallback the
// router needs), drives Debian's Chromium through playwright-core, fails a test on any console
// error or uncaught page exception, and saves a screenshot when a test fails.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..', '..');
const DIST = path.join(ROOT, 'dist');
const SHOTS = path.join(here, 'screenshots');

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.jsonl': 'application/x-ndjson', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf',
  '.png': 'image/png', '.yaml': 'text/yaml', '.txt': 'text/plain',
};

/**
 * Serve a built app on 127.0.0.1 at a free port. Unknown paths below `prefix` get index.html
 * (client-side routes); paths outside `prefix` are 404, as on a static host serving the app in a
 * sub-folder. `gzip` compresses text and wasm as static hosts do (for the cold-load benchmark).
 */
export function serveDist({ dir = DIST, prefix = '/', gzip = false } = {}) {
  const zipped = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const pathname = decodeURIComponent(url.pathname);
    const below = pathname === prefix.replace(/\/$/, '') ? '/' : pathname.startsWith(prefix) ? '/' + pathname.slice(prefix.length) : null;
    if (below === null) { res.writeHead(404).end('outside the app'); return; }
    let file = path.normalize(path.join(dir, below));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dir, 'index.html');
    const type = MIME[path.extname(file)] ?? 'application/octet-stream';
    if (gzip && /text|javascript|wasm|json|svg/.test(type) && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
      if (!zipped.has(file)) zipped.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip' });
      res.end(zipped.get(file));
      return;
    }
    res.writeHead(200, { 'content-type': type });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) });
  }));
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/**
 * Start the scripted OpenAI-compatible server (tests/mock_llm/server.mjs) on a free port.
 * Returns { url, baseUrl, stop }. `extraArgs` are passed to the server.
 */
export async function startMockLlm(extraArgs = []) {
  const script = path.join(ROOT, 'tests', 'mock_llm', 'server.mjs');
  const child = spawn(process.execPath, [script, '--port', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('mock LLM server did not start')), 10_000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/LISTENING (\d+)/);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    child.on('exit', (code) => reject(new Error(`mock LLM server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, baseUrl: `${url}/v1`, stop: () => child.kill() };
}

async function screenshot(page, name = 'test') {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${String(name).replace(/[^a-z0-9]+/gi, '_').slice(0, 80)}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => {});
}

/**
 * Register node:test hooks that give each test a fresh page on the served app.
 * Usage: const app = useApp({ it, before, after, beforeEach, afterEach });
 *        app.it('does X', async (page) => { ... });   // screenshot saved if it fails
 * `allowConsoleErrors` lists regexes of console errors a test expects (e.g. a refused CORS call).
 */
export function useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors = [], serve = {} } = {}) {
  const ctx = { page: null, url: null, errors: [], allow: [...allowConsoleErrors] };
  let server; let browser;
  before(async () => { server = await serveDist(serve); ctx.url = server.url + (serve.prefix ?? '/').replace(/\/$/, ''); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); await server?.close(); });
  beforeEach(async () => {
    ctx.errors = [];
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    ctx.page = await context.newPage();
    ctx.page.on('console', (msg) => {
      if (msg.type() === 'error' && !ctx.allow.some((re) => re.test(msg.text()))) ctx.errors.push(`console error: ${msg.text()}`);
    });
    ctx.page.on('pageerror', (err) => ctx.errors.push(`uncaught exception: ${err.message}`));
  });
  afterEach(async (t) => {
    const page = ctx.page;
    if (ctx.errors.length && page) await screenshot(page, t?.name);
    await page?.context().close();
    if (ctx.errors.length) throw new Error(ctx.errors.join('\n'));
  });
  /** A test that gets the page and leaves a screenshot in tests/e2e/screenshots/ when it fails. */
  ctx.it = (name, a, b) => {
    // Both app.it(name, fn, opts) and node:test's own order app.it(name, opts, fn) work.
    const [fn, opts] = typeof a === 'function' ? [a, b ?? {}] : [b, a ?? {}];
    return itWithShot(name, fn, opts);
  };
  const itWithShot = (name, fn, opts) => it(name, opts, async () => {
    try { await fn(ctx.page); } catch (e) { await screenshot(ctx.page, name); throw e; }
  });
  /** Navigate to a path of the app and wait until the app has mounted. */
  ctx.goto = async (p = '/') => {
    await ctx.page.goto(ctx.url + p);
    await ctx.page.waitForSelector('[data-testid="page"]', { timeout: 15_000 });
  };
  return ctx;
}

// A grade file for the LLM fallback (fallback.spec, loop.spec) and the mock's rules for it: five
// lines, three of them low-confidence; the model answers `b` right, changes `c`'s verdict with a
// wrong answer and fails on `e` (sent 3, used 2, changed 1, failed 1).
export const FALLBACK_GRADE = {
  // The model answers `{"final_answer": …}` between the call's answer lines (the mock's default
  // without JSON mode); its answer is used only when the text states it as an answer.
  mock: {
    rules: [
      { match: 'boxed{11}', reply: { final_answer: '12' } },
      { match: '3 cats', reply: { final_answer: '5' } },
      { match: '7 birds', fault: '400' },
    ],
    default_reply: { final_answer: '999' },
  },
  lines: [
    { id: 'a', output: 'So the final answer is \\boxed{7}.', ground_truth: '7' },
    { id: 'b', output: 'Maybe \\boxed{11}. The answer is 12.', ground_truth: '12' },
    { id: 'c', output: 'There were 3 cats and then 5 dogs', ground_truth: '3' },
    { id: 'd', output: 'The answer is 6.', ground_truth: '6' },
    { id: 'e', output: 'We saw 7 birds and 2 owls', ground_truth: '7' },
  ],
};
