// Language selection in the browser (spec §1): detection, account overrides, <html lang>.
import { describe, expect, it } from 'vitest';
import { applyAccountLanguage, currentLanguage, initI18n, setLanguage } from './i18n.ts';
import { loadTexts } from './texts.ts';

describe('languages in the page', () => {
  it('starts from ?locale=, names it in <html lang>, and loads the texts', async () => {
    window.history.replaceState(null, '', '/login?locale=es');
    // A route opened directly asks for its texts before start-up (the router starts first).
    await loadTexts(['users']);
    const i18n = await initI18n();
    expect(currentLanguage()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(i18n.t('login.title')).toBe('Iniciar sesión');
    expect(i18n.t('users.listLabel')).toBe('Usuarios');
  });

  it('an explicit ?locale= survives the server language before sign-in', async () => {
    window.history.replaceState(null, '', '/login?locale=es');
    await applyAccountLanguage({ 'tarkan.lang': 'en' });
    expect(currentLanguage()).toBe('es');
  });

  it("without ?locale= the server's tarkan.lang wins over the browser", async () => {
    window.history.replaceState(null, '', '/login');
    await applyAccountLanguage({ 'tarkan.lang': 'en-US' });
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it("the user's tarkan.lang wins over the server's once signed in; none keeps the current one", async () => {
    window.history.replaceState(null, '', '/home');
    await applyAccountLanguage({ 'tarkan.lang': 'en' }, { 'tarkan.lang': 'pt' });
    expect(currentLanguage()).toBe('pt-BR');
    await setLanguage('es');
    await applyAccountLanguage({}, {});
    expect(currentLanguage()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });
});
