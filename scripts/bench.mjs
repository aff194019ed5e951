#!/usr/bin/env node
// `npm run bench -- <name> [args...]`: runs bench/<name>.ts with tsx and passes the rest of
// the arguments on. Without a name, or with an unknown one, lists the benchmarks.
// Benchmarks print figures; they are not tests and CI does not run them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');

function available() {
  if (!fs.existsSync(benchDir)) return [];
  return fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts') && !f.startsWith('_'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** First comment line of a bench file, shown in the list. */
function describe(name) {
  const text = fs.readFileSync(path.join(benchDir, `${name}.ts`), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith('//'));
  return line ? line.replace(/^\/\/\s?/, '').trim() : '';
}

function usage(message) {
  if (message) console.error(message);
  const names = available();
  console.error('Usage: npm run bench -- <name> [args...]');
  if (names.length === 0) {
    console.error('No benchmarks yet (bench/<name>.ts).');
  } else {
    console.error('Benchmarks:');
    const width = Math.max(...names.map((n) => n.length));
    for (const n of names) console.error(`  ${n.padEnd(width)}  ${describe(n)}`);
  }
  process.exit(message ? 2 : 0);
}

const [name, ...rest] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h') usage(name ? undefined : 'No benchmark named.');
if (!/^[A-Za-z0-9._-]+$/.test(name) || !available().includes(name)) usage(`Unknown benchmark "${name}".`);

const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', `${name}.ts`), ...rest], {
  cwd: root,
  stdio: 'inherit',
});
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 130 : 1));
});
