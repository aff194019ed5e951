import { describe, expect, it } from 'vitest';
import { hasProblems, minFor, passwordProblems, registrationProblems } from './validation.ts';

describe('account form checks (spec §5, §9)', () => {
  it('needs a name of 3, an e-mail of 4 and a password of 4 typed twice', () => {
    expect(registrationProblems('', '', '', '')).toEqual({
      name: 'forms.nameRequired', email: 'forms.emailRequired', password: 'forms.passwordRequired', confirm: 'forms.confirmRequired',
    });
    expect(registrationProblems('Al', 'abc', 'abc', 'abd')).toEqual({
      name: 'forms.nameShort', email: 'forms.emailShort', password: 'forms.passwordShort', confirm: 'forms.passwordMismatch',
    });
    const ok = registrationProblems('Ana', 'ana@', 'abcd', 'abcd');
    expect(hasProblems(ok)).toBe(false);
  });
  it('counts the name and e-mail without surrounding spaces', () => {
    expect(registrationProblems('  Al  ', '  abc ', 'abcd', 'abcd').name).toBe('forms.nameShort');
    expect(registrationProblems('  Al  ', '  abc ', 'abcd', 'abcd').email).toBe('forms.emailShort');
  });
  it('a new password must match its confirmation', () => {
    expect(passwordProblems('abcd', 'abce')).toEqual({ password: null, confirm: 'forms.passwordMismatch' });
    expect(passwordProblems('abcd', 'abcd')).toEqual({ password: null, confirm: null });
  });
  it('gives each text its minimum', () => {
    expect([minFor('forms.nameShort'), minFor('forms.emailShort'), minFor('forms.passwordShort')]).toEqual([3, 4, 4]);
  });
});
