// Runs every tests/e2e/*.spec.mjs with node's test runner (spec output on the terminal, TAP to a
// file) and writes the one-line summary scripts/test prints: "e2e: N passed, M failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const only = process.argv.slice(2);
const specs = (only.length ? only : fs.readdirSync(here).filter((f) => f.endsWith('.spec.mjs')).sort()
  .map((f) => path.join(here, f)));
fs.mkdirSync(path.join(root, 'target'), { recursive: true });
const tap = path.join(root, 'target', 'e2e.tap');
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...specs], { stdio: 'inherit', cwd: root });
const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
const line = `e2e: ${num('pass')} passed, ${num('fail') + num('cancelled')} failed`;
fs.writeFileSync(path.join(root, 'target', 'e2e-summary.txt'), line + '\n');
console.log(line);
process.exit(r.status ?? 1);
