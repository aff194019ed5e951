// How `npm test` counts reports: a crash counts as a failure, never as zero tests.
import { describe, expect, it } from 'vitest';
import { countPlaywright, countVitest } from './test.mjs';

const file = (status, tests, name = '/repo/a.test.ts') => ({
  name,
  status,
  assertionResults: tests.map((s) => ({ status: s })),
});

describe('countVitest', () => {
  it('counts passed, failed and skipped tests', () => {
    const report = { testResults: [file('passed', ['passed', 'passed', 'skipped']), file('failed', ['passed', 'failed', 'todo'])] };
    expect(countVitest(report, 1)).toMatchObject({ passed: 3, failed: 1, skipped: 2 });
  });

  it('counts a file that failed to load as one failure', () => {
    const report = { testResults: [file('failed', [], '/repo/broken.test.ts'), file('passed', ['passed'])] };
    const result = countVitest(report, 1);
    expect(result).toMatchObject({ passed: 1, failed: 1 });
    expect(result.note).toContain('broken.test.ts');
  });

  it('counts a file whose hook threw (tests skipped) as one failure', () => {
    expect(countVitest({ testResults: [file('failed', ['skipped', 'skipped'])] }, 1)).toMatchObject({ failed: 1, skipped: 2 });
  });

  it('counts a missing report or a non-zero exit without failures as a failure', () => {
    expect(countVitest(null, 1)).toMatchObject({ passed: 0, failed: 1 });
    expect(countVitest({}, 0)).toMatchObject({ failed: 1 });
    expect(countVitest({ testResults: [file('passed', ['passed'])] }, 1)).toMatchObject({ passed: 1, failed: 1 });
    expect(countVitest({ testResults: [file('passed', ['passed'])] }, 0)).toMatchObject({ passed: 1, failed: 0 });
  });
});

describe('countPlaywright', () => {
  it('counts expected and flaky as passed, unexpected as failed', () => {
    const report = { stats: { expected: 4, unexpected: 1, flaky: 1, skipped: 2 }, errors: [] };
    expect(countPlaywright(report, 1)).toMatchObject({ passed: 5, failed: 1, skipped: 2 });
  });

  it('counts global errors, a missing report or a bad exit as a failure', () => {
    expect(countPlaywright({ stats: { expected: 0, unexpected: 0 }, errors: [{ message: 'config' }] }, 1)).toMatchObject({ failed: 1 });
    expect(countPlaywright(null, 1)).toMatchObject({ failed: 1 });
    expect(countPlaywright({ stats: { expected: 2, unexpected: 0 }, errors: [] }, 1)).toMatchObject({ passed: 2, failed: 1 });
    expect(countPlaywright({ stats: { expected: 2, unexpected: 0 }, errors: [] }, 0)).toMatchObject({ passed: 2, failed: 0 });
  });
});
