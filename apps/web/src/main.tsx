import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/light.css';
import { initI18n } from './i18n/i18n.ts';
import { App } from './app/app.tsx';
import { registerWorker } from './app/pwa.ts';

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

if (import.meta.env.PROD) {
  // After the first screen, so the worker's precache does not compete with it.
  window.addEventListener('load', () => void registerWorker(), { once: true });
}
