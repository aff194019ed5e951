import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/light.css';
import { initI18n } from './i18n/i18n.ts';
import { App } from './app/app.tsx';

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
