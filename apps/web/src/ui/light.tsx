// Small accessible form pieces for the public screens (see light.css for why they exist).
import { useEffect, useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { useSearchParams } from 'react-router';
import { LANGUAGES, type Language } from '@rastro/domain/language';
import { currentLanguage, setLanguage } from '../i18n/i18n.ts';
import { useSession } from '../app/session-store.ts';
import './light.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

export function Field({ label, error, inputRef, id, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  return (
    <div className="ls-field">
      <label htmlFor={inputId}>{label}</label>
      <input
        ref={inputRef}
        id={inputId}
        className="ls-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? hintId : undefined}
        {...input}
      />
      {error && <span id={hintId} className="ls-hint">{error}</span>}
    </div>
  );
}

export function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="ls-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      {label}
    </label>
  );
}

export function SubmitButton({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="ls-button" disabled={busy} aria-busy={busy || undefined}>
      {busy && <span className="ls-spinner" aria-hidden />}
      {children}
    </button>
  );
}

export function Notice({ kind, title, children }: { kind: 'error' | 'success' | 'info'; title?: string; children: ReactNode }) {
  return (
    <div className={`ls-alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title && <strong className="ls-alert-title">{title}</strong>}
      {children}
    </div>
  );
}

export function Spinner() {
  return <div className="ls-spinner" aria-hidden />;
}

const LANGUAGE_KEYS: Record<Language, string> = { 'pt-BR': 'languages.ptBR', es: 'languages.es', en: 'languages.en' };

/**
 * pt-BR / Español / English. The choice goes into the address as `?locale=` (the first source
 * of spec §1 detection), so a reload or a shared link keeps it.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const [, setSearch] = useSearchParams();
  const active = currentLanguage();
  const choose = (language: Language) => {
    void setLanguage(language);
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('locale', language);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  return (
    <nav className="ls-languages" aria-label={t('languages.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="ls-language"
          aria-pressed={language === active}
          onClick={() => choose(language)}
        >
          {t(LANGUAGE_KEYS[language])}
        </button>
      ))}
    </nav>
  );
}

/** Sets the document title while a screen is shown ("Screen · Product"). */
export function usePageTitle(title: string) {
  const product = useProductName();
  useEffect(() => {
    document.title = title ? `${title} · ${product}` : product;
  }, [title, product]);
}

/** The product name: the server's `title` attribute when set, else Rastro. */
export function useProductName(): string {
  const { t } = useTranslation();
  const title = useSession((s) => s.serverInfo?.server.attributes?.title);
  return typeof title === 'string' && title.trim() ? title : t('app.name');
}

export function AuthCard({ heading, children, footer = true }: { heading: string; children: ReactNode; footer?: boolean }) {
  const { t } = useTranslation();
  const product = useProductName();
  usePageTitle(heading);
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width={44} height={44} />
          <div>
            <p className="auth-product">{product}</p>
            <p className="auth-tagline">{t('app.tagline')}</p>
          </div>
        </div>
        <h1 className="auth-title">{heading}</h1>
        {children}
        {footer && <LanguageSwitch />}
      </div>
    </main>
  );
}
