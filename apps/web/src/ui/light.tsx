// Small accessible form pieces for the public screens (see light.css for why they exist).
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
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

export function Notice({ kind, children }: { kind: 'error' | 'success'; children: ReactNode }) {
  return (
    <div className={`ls-alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Spinner() {
  return <div className="ls-spinner" aria-hidden />;
}

export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width={44} height={44} />
          <div>
            <h1>{title}</h1>
            <p>{subtitle}</p>
          </div>
        </div>
        {children}
      </div>
    </main>
  );
}
