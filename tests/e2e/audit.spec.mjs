// Quick-audit and Settings pages: settings import/export, an audit end to end against the
// scripted mock LLM server, cancel, and clear error messages.
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, startMockLlm, ROOT } from './harness.mjs';

const EXAMPLES = path.join(ROOT, 'public', 'examples');

function settingsFor(baseUrl, extra = '') {
  return `defaults:\n  max_tokens: 2000\n  temperature: 0.1\nllms:\n  mock:\n    base_url: "${baseUrl}"\n    model: "mock-model"\n${extra}profiles:\n  mock-full:\n    run: mock\n    verify: mock\n`;
}

function writeTemp(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vf-e2e-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('settings page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('imports settings.yaml, keeps it after a reload, and exports without keys', async (page) => {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(path.join(EXAMPLES, 'settings.yaml'));
    await page.getByTestId('settings-notice').filter({ hasText: '2 LLMs, 2 profiles' }).waitFor();
    assert.equal(await page.getByTestId('settings-llm').count(), 2);
    await page.getByTestId('settings-api-key').first().fill('sk-e2e-secret');
    await page.getByTestId('settings-api-key').first().dispatchEvent('change');
    await page.reload();
    await page.getByTestId('page-settings').waitFor();
    assert.equal(await page.getByTestId('settings-llm').count(), 2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('settings-export-yaml').click(),
    ]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    assert.match(text, /inference_engine/);
    assert.match(text, /cross-verify/);
    assert.doesNotMatch(text, /sk-e2e-secret/);
    await page.getByTestId('settings-include-keys').check();
    const [withKeys] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('settings-export-yaml').click(),
    ]);
    assert.match(fs.readFileSync(await withKeys.path(), 'utf8'), /sk-e2e-secret/);
  });

  app.it('imports a strategy and reports a wrong type with its key path', async (page) => {
    await app.goto('/settings');
    await page.getByTestId('settings-import').setInputFiles(path.join(EXAMPLES, 'strategy.yaml'));
    await page.getByTestId('settings-notice').filter({ hasText: 'Imported strategy' }).waitFor();
    const bad = writeTemp('bad.yaml', 'llms:\n  a:\n    base_url: http://x\n    model: 42\n');
    await page.getByTestId('settings-import').setInputFiles(bad);
    const err = await page.getByTestId('settings-error').innerText();
    assert.match(err, /llms\.a\.model: expected a string/);
  });
});

describe('quick audit page', () => {
  const app = useApp({ it, before, after, beforeEach, afterEach });

  app.it('asks for both texts before running', async (page) => {
    await app.goto('/audit');
    await page.getByTestId('audit-run').click();
    assert.match(await page.getByTestId('audit-error').innerText(), /Paste both the context/);
  });
});
