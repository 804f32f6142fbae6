// The browser LLM client against the scripted mock server: a server that refuses CORS must
// produce the message naming both causes (server down / CORS refused) with each server's fix
// from an audit, and "Test connection" (which can probe) says CORS alone; a reachable server
// must test as connected.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm } from './harness.mjs';

// Chrome logs the refused preflight and the failed fetch as console errors: expected here.
const CORS_CONSOLE = [/CORS policy/i, /Failed to load resource/i, /ERR_FAILED/i, /net::/i];

function settingsFile(baseUrl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-llm-e2e-'));
  const file = path.join(dir, 'settings.yaml');
  fs.writeFileSync(
    file,
    `defaults:\n  max_tokens: 200\n  temperature: 0\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\nprofiles:\n  mock-full:\n    run: mock\n    verify: mock\n`,
  );
  return file;
}

async function useSettings(app, page, baseUrl) {
  await app.goto('/settings');
  await page.getByTestId('settings-import').setInputFiles(settingsFile(baseUrl));
  await page.getByTestId('settings-notice').filter({ hasText: '1 LLM' }).waitFor();
}

async function serverLog(mock) {
  const res = await fetch(`${mock.url}/__log`);
  return (await res.json()).requests;
}

function assertCorsExplanation(text) {
  assert.match(text, /CORS/);
  assert.match(text, /not running|URL is wrong/);
  assert.match(text, /OLLAMA_ORIGINS/);
  assert.match(text, /LM Studio/);
  assert.match(text, /--allowed-origins/);
}

describe('LLM client in the browser: CORS and Test connection', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach }, { allowConsoleErrors: CORS_CONSOLE });
  let refusing;
  let open;
  before(async () => {
    refusing = await startMockLlm(['--no-cors']);
    open = await startMockLlm([]);
  });
  after(() => {
    refusing?.stop();
    open?.stop();
  });

  app.it('an audit against a server refusing CORS explains both causes and the fixes', async (page) => {
    await useSettings(app, page, refusing.baseUrl);
    await app.goto('/audit');
    await page.getByTestId('audit-context').fill('The city had 120 buses in 2020 and 150 in 2023.');
    await page.getByTestId('audit-output').fill('The bus fleet grew by 25 % from 2020 to 2023.');
    await page.getByTestId('audit-profile').selectOption('mock-full');
    await page.getByTestId('audit-run').click();
    const error = page.getByTestId('audit-error');
    await error.waitFor({ timeout: 30_000 });
    assertCorsExplanation(await error.innerText());
    // The browser did ask: the preflight reached the server and was refused.
    const log = await serverLog(refusing);
    assert.ok(log.some((r) => r.method === 'OPTIONS' && r.status === 403), JSON.stringify(log));
    // Only our two headers were requested in the preflight.
    const asked = log.find((r) => r.method === 'OPTIONS')?.headers['access-control-request-headers'] ?? '';
    assert.deepEqual(asked.split(',').map((h) => h.trim()).filter(Boolean).sort(), ['content-type']);
  });

  app.it('Test connection reports the CORS refusal', async (page) => {
    await useSettings(app, page, refusing.baseUrl);
    await page.getByTestId('settings-test-connection').first().click();
    const result = page.getByTestId('settings-test-connection-result').first();
    await result.waitFor({ timeout: 20_000 });
    const text = await result.innerText();
    assert.match(text, /Connection failed/);
    // The server is up (a no-cors request reached it): the page says CORS, not "not running".
    assert.match(text, /answered, but it does not let this page read its replies \(CORS/);
    assert.doesNotMatch(text, /not running/);
    for (const fix of [/OLLAMA_ORIGINS/, /LM Studio/, /--allowed-origins/]) assert.match(text, fix);
  });

  app.it('Test connection to a reachable server lists the model', async (page) => {
    await useSettings(app, page, open.baseUrl);
    await page.getByTestId('settings-test-connection').first().click();
    const result = page.getByTestId('settings-test-connection-result').first();
    await result.waitFor({ timeout: 20_000 });
    assert.match(await result.innerText(), /Connected: model `mock-model` is available/);
    const log = await serverLog(open);
    assert.ok(log.some((r) => r.method === 'GET' && r.path === '/v1/models' && r.status === 200));
  });
});
