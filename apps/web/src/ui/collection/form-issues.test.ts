// The domain schemas' English refusals become form messages in the user's language.
import { beforeAll, describe, expect, it } from 'vitest';
import { groupSchema } from '@rastro/domain/schemas/group';
import { userSchema } from '@rastro/domain/schemas/user';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { formErrors, issueField, issueText } from './form-issues.ts';

let i18n: Awaited<ReturnType<typeof initTestI18n>>;
beforeAll(async () => {
  i18n = await initTestI18n('pt-BR');
});

const issuesOf = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } }, value: unknown) =>
  schema.safeParse(value).error!.issues as Parameters<typeof formErrors>[0];

describe('zod issues to form messages', () => {
  it('reads each kind of domain refusal', () => {
    expect(issueText(issuesOf(groupSchema, { name: ' ' })[0]!)).toEqual({ key: 'required' });
    expect(issueText(issuesOf(groupSchema, { name: 'x'.repeat(600) })[0]!)).toEqual({ key: 'tooLong', values: { max: 512 } });
    const user = issuesOf(userSchema, { latitude: 200, zoom: 1.5, disabled: 'y', expirationTime: 'x' });
    const byField = Object.fromEntries(user.map((i) => [issueField(i.path), issueText(i)]));
    expect(byField).toEqual({
      latitude: { key: 'range', values: { min: -90, max: 90 } },
      zoom: { key: 'wholeRange', values: { min: 0, max: 24 } },
      disabled: { key: 'boolean' },
      expirationTime: { key: 'date' },
    });
  });
  it('reads zod built-in issues by their code', () => {
    expect(issueText({ code: 'too_small', origin: 'string', minimum: 3, path: ['name'], message: 'x' })).toEqual({ key: 'tooShort', values: { min: 3 } });
    expect(issueText({ code: 'invalid_format', format: 'email', path: ['email'], message: 'x' })).toEqual({ key: 'email' });
    expect(issueText({ code: 'custom', path: ['x'], message: 'must be a Base32 secret' })).toEqual({ key: 'invalid' });
  });
  it('renders one message per field in the language on screen', async () => {
    const issues = issuesOf(userSchema, { latitude: 200, attributes: { speedLimit: 1 }, zoom: 'a' });
    await i18n.changeLanguage('pt-BR');
    expect(formErrors(issues, i18n.t).latitude).toBe('Um número de -90 a 90.');
    await i18n.changeLanguage('es');
    expect(formErrors(issues, i18n.t).latitude).toBe('Un número de -90 a 90.');
    await i18n.changeLanguage('en');
    const en = formErrors(issues, i18n.t);
    expect(en.latitude).toBe(texts.en.collection.issues.range.replace('{{min}}', '-90').replace('{{max}}', '90'));
    expect(Object.values(en).every((m) => !m.includes('collection.'))).toBe(true);
  });
  it('keeps the attribute key of an attribute problem and the first issue of a field', () => {
    expect(issueField(['attributes', 'tarkan.lang'])).toBe('attributes.tarkan.lang');
    expect(issueField([])).toBe('');
    expect(issueField(['form', 'schedules', 0, 'end'])).toBe('form.schedules.0.end');
    expect(issueField(['form', 'schedules'])).toBe('form');
    const errors = formErrors([
      { code: 'custom', path: ['name'], message: 'Name is required - fill in the name field' },
      { code: 'custom', path: ['name'], message: 'at most 5 characters' },
    ], i18n.t);
    expect(Object.keys(errors)).toEqual(['name']);
  });
});
