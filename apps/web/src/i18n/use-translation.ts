// `useTranslation()` over our texts engine (translator.ts): re-renders the component when the
// language changes or a screen's texts arrive, and gives a `t` whose identity changes with
// them (so memos and effects that depend on `t` recompute).
import { useMemo, useSyncExternalStore } from 'react';
import i18next, { type TFunction } from './translator.ts';

const subscribe = (listener: () => void) => i18next.subscribe(listener);
const version = () => i18next.version;

export function useTranslation(): { t: TFunction; i18n: typeof i18next } {
  const current = useSyncExternalStore(subscribe, version, version);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `current` is the reason to rebind
  const t = useMemo<TFunction>(() => (keys, options) => i18next.t(keys, options), [current]);
  return { t, i18n: i18next };
}
