#!/usr/bin/env node
// `npm test`: every check of the repository, in order, with one summary line at the end.
//
//   typecheck  tsc -p <project> for each project in TYPECHECK   (one check each)
//   lint       eslint .                                          (one check)
//   vitest     all projects of vitest.config.ts                  (every test counts)
//   e2e        Playwright, only when e2e/playwright.config.ts exists (every test counts)
//
// The last line printed is exactly `N passed, N failed, N skipped` (CI reads it) and the
// exit code is non-zero when anything failed. A step that crashes before it reports
// (no JSON report, a file that cannot load, a hook that throws, an unhandled error)
// counts as failed, never as zero tests.
//
// `node scripts/test.mjs typecheck lint` runs only the named steps.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** TypeScript projects checked by `tsc -p`, in order; a new project is one more line. */
const TYPECHECK = [
  'packages/domain',
  'apps/server',
  'apps/web',
  'e2e',
];

const PLAYWRIGHT_CONFIG = 'e2e/playwright.config.ts';
const STEPS = ['typecheck', 'lint', 'vitest', 'e2e'];

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command with the console attached; resolves with its exit code (crash = non-zero). */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const done = (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code);
    };
    child.on('error', (error) => {
      console.error(`[test] cannot run ${command}: ${error.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

function banner(text) {
  console.log(`\n=== ${text} ===`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** One result per step: { name, passed, failed, skipped, seconds, note }. */
const results = [];

async function timed(name, fn) {
  const started = Date.now();
  const result = await fn();
  results.push({ name, skipped: 0, note: '', ...result, seconds: (Date.now() - started) / 1000 });
}

async function typecheck() {
  for (const project of TYPECHECK) {
    await timed(`typecheck ${project}`, async () => {
      banner(`tsc -p ${project}`);
      const code = await run(bin('tsc'), ['-p', project]);
      return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, note: `tsc exited with ${code}` };
    });
  }
}

async function lint() {
  await timed('lint', async () => {
    banner('eslint .');
    const code = await run(bin('eslint'), ['.']);
    return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, note: `eslint exited with ${code}` };
  });
}

/** Counts a Vitest JSON report (Jest-compatible shape) per file. */
export function countVitest(report, exitCode) {
  if (!report || !Array.isArray(report.testResults)) {
    return { passed: 0, failed: 1, skipped: 0, note: `no JSON report (vitest exited with ${exitCode})` };
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const broken = [];
  for (const file of report.testResults) {
    let fileFailed = 0;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') fileFailed += 1;
      else skipped += 1; // skipped, pending, todo
    }
    // A file that failed without a failing test crashed: import error, hook, syntax, timeout.
    if (file.status === 'failed' && fileFailed === 0) {
      fileFailed = 1;
      broken.push(path.relative(root, file.name ?? '?'));
    }
    failed += fileFailed;
  }
  const notes = [];
  if (broken.length) notes.push(`crashed: ${broken.join(', ')}`);
  if (exitCode !== 0 && failed === 0) {
    failed = 1; // unhandled errors, or a run that died after writing a partial report
    notes.push(`vitest exited with ${exitCode} and reported no failing test`);
  }
  return { passed, failed, skipped, note: notes.join('; ') };
}

async function vitest(tmp) {
  await timed('vitest', async () => {
    banner('vitest run');
    const out = path.join(tmp, 'vitest.json');
    const code = await run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
    return countVitest(readJson(out), code);
  });
}

/** Counts a Playwright JSON report. */
export function countPlaywright(report, exitCode) {
  if (!report || !report.stats) {
    return { passed: 0, failed: 1, skipped: 0, note: `no JSON report (playwright exited with ${exitCode})` };
  }
  const s = report.stats;
  const passed = (s.expected ?? 0) + (s.flaky ?? 0);
  let failed = s.unexpected ?? 0;
  const skipped = s.skipped ?? 0;
  const notes = [];
  if (s.flaky) notes.push(`${s.flaky} flaky`);
  if ((report.errors?.length ?? 0) > 0 && failed === 0) {
    failed = 1; // global set-up or a file that does not load
    notes.push(`${report.errors.length} error(s) outside tests`);
  }
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    notes.push(`playwright exited with ${exitCode} and reported no failing test`);
  }
  return { passed, failed, skipped, note: notes.join('; ') };
}

async function e2e(tmp) {
  if (!fs.existsSync(path.join(root, PLAYWRIGHT_CONFIG))) {
    console.log(`\n(no ${PLAYWRIGHT_CONFIG}: browser tests skipped)`);
    return;
  }
  await timed('e2e', async () => {
    banner(`playwright test -c ${PLAYWRIGHT_CONFIG}`);
    const out = path.join(tmp, 'playwright.json');
    const code = await run(bin('playwright'), ['test', '-c', PLAYWRIGHT_CONFIG, '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_FILE: out,
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    return countPlaywright(readJson(out), code);
  });
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((s) => !STEPS.includes(s));
  if (unknown.length) {
    console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${STEPS.join(', ')}`);
    process.exit(2);
  }
  const steps = wanted.length ? STEPS.filter((s) => wanted.includes(s)) : STEPS;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-test-report-'));
  const started = Date.now();
  try {
    if (steps.includes('typecheck')) await typecheck();
    if (steps.includes('lint')) await lint();
    if (steps.includes('vitest')) await vitest(tmp);
    if (steps.includes('e2e')) await e2e(tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const total = { passed: 0, failed: 0, skipped: 0 };
  console.log('\n=== summary ===');
  for (const r of results) {
    total.passed += r.passed;
    total.failed += r.failed;
    total.skipped += r.skipped;
    const state = r.failed ? 'FAIL' : 'ok  ';
    const counts = `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`;
    console.log(`${state} ${r.name.padEnd(28)} ${counts.padEnd(34)} ${r.seconds.toFixed(1).padStart(6)} s${r.note ? `  (${r.note})` : ''}`);
  }
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
