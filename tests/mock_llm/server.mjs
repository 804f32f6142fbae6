#!/usr/bin/env node
// Scripted OpenAI-compatible server for tests (Node 20, no npm dependencies).
//
// Start:  node tests/mock_llm/server.mjs --port 0 [options]
//         prints "LISTENING <port>" on stdout once it accepts connections.
// Options:
//   --port N            port on 127.0.0.1 (0 = any free port)
//   --script FILE       a script JSON file (format below)
//   --script-json TEXT  the script inline
//   --latency MS        base latency of every /v1 answer (adds to the script's)
//   --no-cors           refuse CORS: no Access-Control-* headers, preflight answered 403
//   --fault-rate R      fraction 0..1 of chat calls that fail at random (seeded)
//   --fault-kinds A,B   faults drawn for --fault-rate (default "503")
//   --seed N            RNG seed for --fault-rate (default 1)
//   --api-key K         require "Authorization: Bearer K" on /v1 (401 otherwise)
//
// Endpoints:
//   POST /v1/chat/completions   OpenAI chat completion (non-streaming)
//   GET  /v1/models             {"object":"list","data":[{"id":...}]}
//   OPTIONS *                   CORS preflight (allows only Authorization and Content-Type)
//   GET  /__log                 {"requests":[{seq,method,path,headers,body,rule,fault,status,ms}]}
//   DELETE /__log               clears the log
//   POST /__script              replaces the script (body = script JSON); resets rule counters
//                               and the RNG; the log is kept
//   GET  /__health              "ok"
//
// Script format (every field optional):
// {
//   "latency_ms": 0,                 // added to every /v1 answer
//   "cors": true,                    // false = refuse CORS (as --no-cors)
//   "cors_allow_headers": ["authorization", "content-type"],
//   "api_key": null,                 // as --api-key
//   "models": ["mock-model"],        // listed by GET /v1/models
//   "default_reply": "mock reply",   // chat reply when no rule matches (string, or JSON value
//                                    // which is sent as its JSON text)
//   "quote": null,                   // "marked" | "bare" | "raw" | "parrot" (see quoted())
//   "fault_rate": 0, "fault_kinds": ["503"], "seed": 1,
//   "rules": [                       // first rule that matches and has uses left wins
//     {
//       "match": "Phase 1",          // substring of the LAST user message
//       "match_any": "phase:decompose", // substring of ANY message (system prompts: phase markers)
//       "model": "mock-run",         // exact model name of the request
//       "path": "/v1/chat/completions", // default; "/v1/models" makes a rule apply to the list
//       "times": 2,                  // the rule applies to its first N matches only
//       "latency_ms": 300,           // extra latency for this rule
//       "reply": {"claims": []},     // content of the assistant message (string or JSON)
//       "usage": {"prompt_tokens": 10, "completion_tokens": 5},
//       "finish_reason": "length",   // default "stop"; "length" = cut off by max_tokens
//       "quote": "marked",           // a naive quoting model (also script-wide, below): the
//                                    // reply restates the request's last user message (the
//                                    // audited texts, with whatever they planted) and then
//                                    // gives `reply` between the answer lines the prompt asks
//                                    // for ("marked") or with no markers ("bare")
//       "duplicate_key": {"k": v},   // the reply's object says key k twice (v the second time)
//       "fault": "429"               // instead of a reply, see below
//     }
//   ]
// }
// Faults (a string, or {"kind": "...", "retry_after": "2", "status": 503, "body": "...",
// "hang_ms": 5000}):
//   "400" "401" "403" "404" "413" "500" "502" "503" "504"  that status with a JSON error body
//   "429"            status 429 with Retry-After (default "1"; "retry_after" sets it)
//   "html"           200 with an HTML page
//   "malformed"      200 with invalid JSON
//   "truncated"      200 with a chat completion cut in the middle
//   "empty_choices"  200 with "choices": []
//   "non_chat"       200 with a model list instead of a completion
//   "drop"           the connection is destroyed without an answer (a network error)
//   "hang"           no answer for hang_ms (default: until the client gives up)
//   "echo_auth"      200 with a text (not JSON) body echoing the request's Authorization header
//                    (a misconfigured proxy; for key-redaction tests)
// Usage in replies defaults to ceil(chars / 4) of the prompt and of the reply.

import http from 'node:http';
import fs from 'node:fs';

function parseArgs(argv) {
  const out = { port: 0, script: {}, latency: 0, noCors: false, faultRate: null, faultKinds: null, seed: null, apiKey: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--port') out.port = Number(next());
    else if (a === '--script') out.script = JSON.parse(fs.readFileSync(next(), 'utf8'));
    else if (a === '--script-json') out.script = JSON.parse(next());
    else if (a === '--latency') out.latency = Number(next());
    else if (a === '--no-cors') out.noCors = true;
    else if (a === '--fault-rate') out.faultRate = Number(next());
    else if (a === '--fault-kinds') out.faultKinds = next().split(',');
    else if (a === '--seed') out.seed = Number(next());
    else if (a === '--api-key') out.apiKey = next();
    else { console.error(`unknown option ${a}`); process.exit(3); }
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));

// mulberry32: small seeded RNG so a "20 % fault" run is the same every time.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let state;
function load(script) {
  const s = { ...script };
  if (args.noCors) s.cors = false;
  if (args.faultRate !== null) s.fault_rate = args.faultRate;
  if (args.faultKinds !== null) s.fault_kinds = args.faultKinds;
  if (args.seed !== null) s.seed = args.seed;
  if (args.apiKey !== null) s.api_key = args.apiKey;
  state = {
    script: s,
    uses: (s.rules || []).map(() => 0),
    random: rng(s.seed ?? 1),
  };
}
load(args.script);

const log = [];
let seq = 0;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tokens = (text) => Math.ceil(String(text).length / 4);

function corsHeaders(req) {
  if (state.script.cors === false) return {};
  const allow = state.script.cors_allow_headers || ['authorization', 'content-type'];
  return {
    'access-control-allow-origin': req.headers.origin || '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': allow.join(', '),
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

function send(req, res, status, body, extra = {}) {
  const isText = typeof body === 'string';
  res.writeHead(status, {
    'content-type': extra['content-type'] || (isText ? 'text/plain; charset=utf-8' : 'application/json'),
    ...corsHeaders(req),
    ...extra,
  });
  res.end(isText ? body : JSON.stringify(body));
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

function lastUser(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i] && messages[i].role === 'user') return String(messages[i].content ?? '');
  }
  return '';
}

function pickRule(path, body) {
  const rules = state.script.rules || [];
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const user = lastUser(messages);
  const all = messages.map((m) => String(m?.content ?? '')).join('\n');
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if ((r.path || '/v1/chat/completions') !== path) continue;
    if (r.match !== undefined && !user.includes(r.match)) continue;
    if (r.match_any !== undefined && !all.includes(r.match_any)) continue;
    if (r.model !== undefined && body?.model !== r.model) continue;
    if (r.times !== undefined && state.uses[i] >= r.times) continue;
    state.uses[i] += 1;
    return { index: i, rule: r };
  }
  return null;
}

function normFault(f) {
  if (f === undefined || f === null) return null;
  return typeof f === 'string' ? { kind: f } : { kind: String(f.kind ?? f.status), ...f };
}

// How the scripted reply is sent (docs/audit.md, "Reading replies"):
// - default: as an obedient model would: between the answer lines the prompt names
//   (<answer-TOKEN>) when the request did not ask for JSON mode (`response_format`), as
//   scripted otherwise (or when the prompt names no answer lines, or the reply has them);
// - "raw": exactly as scripted, never wrapped;
// - "marked" / "bare": a chatty model that restates what it was given (the request's last user
//   message) before its answer, between the answer lines or bare;
// - "parrot": a model that repeats the audited text (the data named model_output) as its
//   whole reply, whatever was scripted.
function quoted(mode, messages, content, body) {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  const all = messages.map((m) => String(m?.content ?? '')).join('\n');
  const token = (all.match(/<answer-([0-9a-f]{16})>/) || [])[1];
  if (mode === 'raw') return text;
  if (mode === 'parrot') {
    const m = lastUser(messages).match(/<data-[0-9a-f]+ name="model_output">\n([\s\S]*?)\n<\/data-[0-9a-f]+>/);
    return m ? m[1] : text;
  }
  if (mode !== 'marked' && mode !== 'bare') {
    if (token && !body?.response_format && !text.includes('<answer-')) {
      return `<answer-${token}>\n${text}\n</answer-${token}>`;
    }
    return text;
  }
  const head = `Let me restate what I was given:\n${lastUser(messages)}\n\nMy answer:\n`;
  if (mode === 'marked' && token) return `${head}<answer-${token}>\n${text}\n</answer-${token}>`;
  return `${head}${text}`;
}

// A reply whose JSON object says one key twice (`"duplicate_key": {"factual_errors": []}`
// appends `,"factual_errors":[]` before the object's last `}`): a reader that keeps the last
// one reads a different answer.
function withDuplicate(text, dup) {
  if (!dup || typeof dup !== 'object') return text;
  const end = text.lastIndexOf('}');
  if (end < 0) return text;
  const extra = Object.entries(dup).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('');
  return text.slice(0, end) + extra + text.slice(end);
}

function completion(model, content, usage, prompt, finishReason = 'stop') {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  const p = usage?.prompt_tokens ?? tokens(prompt);
  const c = usage?.completion_tokens ?? tokens(text);
  return {
    id: `chatcmpl-mock-${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
    usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
  };
}

// Answers with a fault; returns the status sent (0 = none: dropped or hung).
async function applyFault(req, res, fault, entry) {
  const kind = fault.kind;
  if (/^\d{3}$/.test(kind)) {
    const status = Number(kind);
    const extra = {};
    if (status === 429) extra['retry-after'] = String(fault.retry_after ?? '1');
    send(req, res, status, fault.body ?? { error: { message: `mock fault ${status}`, type: 'mock', code: status } }, extra);
    return status;
  }
  switch (kind) {
    case 'html':
      send(req, res, 200, '<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>It works</h1></body></html>', { 'content-type': 'text/html' });
      return 200;
    case 'malformed':
      send(req, res, 200, '{"choices": [ {"message": {"content": oops } ]', { 'content-type': 'application/json' });
      return 200;
    case 'truncated': {
      const full = JSON.stringify(completion(entry.body?.model ?? 'mock', 'a truncated reply', null, ''));
      send(req, res, 200, full.slice(0, Math.floor(full.length / 2)), { 'content-type': 'application/json' });
      return 200;
    }
    case 'echo_auth':
      send(req, res, 200, `proxy debug: you sent Authorization: ${req.headers.authorization ?? '(none)'}`);
      return 200;
    case 'empty_choices':
      send(req, res, 200, { id: 'x', object: 'chat.completion', choices: [] });
      return 200;
    case 'non_chat':
      send(req, res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model' }] });
      return 200;
    case 'drop':
      req.socket.destroy();
      return 0;
    case 'hang':
      if (fault.hang_ms !== undefined) {
        await sleep(Number(fault.hang_ms));
        send(req, res, 504, { error: { message: 'mock hang ended' } });
        return 504;
      }
      await new Promise((resolve) => res.on('close', resolve));
      return 0;
    default:
      send(req, res, 500, { error: { message: `unknown mock fault ${kind}` } });
      return 500;
  }
}

function modelsBody() {
  const models = state.script.models || ['mock-model'];
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'mock' })) };
}

async function handleV1(req, res, path, entry) {
  const key = state.script.api_key;
  if (key && req.headers.authorization !== `Bearer ${key}`) {
    send(req, res, 401, { error: { message: 'invalid api key', type: 'invalid_request_error' } });
    return 401;
  }
  const picked = pickRule(path, entry.body);
  entry.rule = picked ? picked.index : null;
  const rule = picked?.rule || {};
  const latency = Number(state.script.latency_ms || 0) + args.latency + Number(rule.latency_ms || 0);
  if (latency > 0) await sleep(latency);

  let fault = normFault(rule.fault);
  const rate = Number(state.script.fault_rate || 0);
  if (!fault && !picked && path === '/v1/chat/completions' && rate > 0 && state.random() < rate) {
    const kinds = state.script.fault_kinds || ['503'];
    fault = normFault(kinds[Math.floor(state.random() * kinds.length)] ?? '503');
  }
  if (fault) {
    entry.fault = fault.kind;
    return applyFault(req, res, fault, entry);
  }
  if (path === '/v1/models' && req.method === 'GET') {
    send(req, res, 200, modelsBody());
    return 200;
  }
  if (path === '/v1/chat/completions' && req.method === 'POST') {
    if (!entry.body || !Array.isArray(entry.body.messages)) {
      send(req, res, 400, { error: { message: 'body must be JSON with "messages"' } });
      return 400;
    }
    const plain = picked && rule.reply !== undefined ? rule.reply : (state.script.default_reply ?? 'mock reply');
    const scripted = withDuplicate(typeof plain === 'string' ? plain : JSON.stringify(plain), rule.duplicate_key);
    const content = quoted(rule.quote ?? state.script.quote, entry.body.messages, scripted, entry.body);
    const prompt = entry.body.messages.map((m) => String(m?.content ?? '')).join('\n');
    send(req, res, 200, completion(entry.body.model ?? 'mock', content, rule.usage, prompt, rule.finish_reason ?? 'stop'));
    return 200;
  }
  send(req, res, 404, { error: { message: `no route ${req.method} ${path}` } });
  return 404;
}

const server = http.createServer(async (req, res) => {
  const started = Date.now();
  const path = (req.url || '/').split('?')[0];
  const raw = await readBody(req);

  if (path.startsWith('/__')) {
    if (path === '/__health') return send(req, res, 200, 'ok');
    if (path === '/__log' && req.method === 'GET') return send(req, res, 200, { requests: log });
    if (path === '/__log' && req.method === 'DELETE') { log.length = 0; return send(req, res, 200, { ok: true }); }
    if (path === '/__script' && req.method === 'POST') {
      try { load(JSON.parse(raw || '{}')); } catch (e) { return send(req, res, 400, { error: { message: `bad script: ${e.message}` } }); }
      return send(req, res, 200, { ok: true });
    }
    return send(req, res, 404, { error: { message: 'no such control endpoint' } });
  }

  let body = null;
  try { body = raw ? JSON.parse(raw) : null; } catch { body = { unparsed: raw.slice(0, 2000) }; }
  const entry = { seq: ++seq, method: req.method, path, headers: { ...req.headers }, body, rule: null, fault: null, status: 0, ms: 0 };
  log.push(entry);

  if (req.method === 'OPTIONS') {
    if (state.script.cors === false) { res.writeHead(403); res.end(); entry.status = 403; return; }
    res.writeHead(204, corsHeaders(req));
    res.end();
    entry.status = 204;
    return;
  }
  if (!path.startsWith('/v1/')) {
    send(req, res, 404, '<!DOCTYPE html><html><body>Not Found</body></html>', { 'content-type': 'text/html' });
    entry.status = 404;
    return;
  }
  try {
    entry.status = await handleV1(req, res, path, entry);
  } catch (e) {
    if (!res.headersSent) send(req, res, 500, { error: { message: `mock server bug: ${e.message}` } });
    entry.status = 500;
  }
  entry.ms = Date.now() - started;
});

server.keepAliveTimeout = 1000;
server.listen(args.port, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${server.address().port}\n`);
});

const stop = () => { server.closeAllConnections?.(); server.close(() => process.exit(0)); setTimeout(() => process.exit(0), 500).unref(); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Die with the test process that started us when it gave us a pipe as stdin (its end
// closes when that process exits, even if it crashed before stopping us).
let stdinIsPipe = false;
try { const st = fs.fstatSync(0); stdinIsPipe = st.isFIFO() || st.isSocket(); } catch { stdinIsPipe = false; }
if (stdinIsPipe) {
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}
