import { describe, expect, it } from 'vitest';
import { mailLanguage } from './mail-language.ts';
import { passwordResetMail } from './password-reset-mail.ts';

describe('mailLanguage', () => {
  it('reads tarkan.lang and defaults to pt-BR', () => {
    expect(mailLanguage({})).toBe('pt-BR');
    expect(mailLanguage({ 'tarkan.lang': 'es' })).toBe('es');
    expect(mailLanguage({ 'tarkan.lang': 'en-US' })).toBe('en');
    expect(mailLanguage({ 'tarkan.lang': 'pt-BR' })).toBe('pt-BR');
    expect(mailLanguage({ 'tarkan.lang': 'fr' })).toBe('pt-BR');
    expect(mailLanguage({ 'tarkan.lang': 7 })).toBe('pt-BR');
  });
});

describe('passwordResetMail', () => {
  it('puts the link in the text of every language', () => {
    for (const lang of ['pt-BR', 'es', 'en'] as const) {
      const mail = passwordResetMail('a@b.c', 'Ana', 'https://x/login/recover/T', lang);
      expect(mail.text).toContain('https://x/login/recover/T');
      expect(mail.to).toBe('a@b.c');
    }
    expect(passwordResetMail('a', 'b', 'l', 'es').subject).toMatch(/contraseña/);
    expect(passwordResetMail('a', 'b', 'l', 'en').subject).toMatch(/Password/);
  });
});
