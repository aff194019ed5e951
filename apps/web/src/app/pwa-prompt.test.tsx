import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, texts } from '../i18n/test-i18n.ts';
import { usePwa } from './pwa-store.ts';
import { PwaPrompt } from './pwa-prompt.tsx';

const pt = texts['pt-BR'];
beforeAll(() => initTestI18n());
afterEach(cleanup);

describe('new-version prompt', () => {
  it('stays hidden until a new worker waits', () => {
    usePwa.setState({ needRefresh: false, update: null });
    render(<PwaPrompt />);
    expect(screen.queryByText(pt.pwa.NEW_VERSION_AVAILABLE)).toBeNull();
  });
  it('accept activates the waiting worker; later hides the prompt', async () => {
    const update = vi.fn(async () => undefined);
    usePwa.setState({ needRefresh: true, update });
    render(<PwaPrompt />);
    expect(screen.getByText(pt.pwa.NEW_VERSION_AVAILABLE)).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: pt.pwa.update }).click());
    expect(update).toHaveBeenCalledTimes(1);
    await act(async () => screen.getByRole('button', { name: pt.pwa.later }).click());
    expect(screen.queryByText(pt.pwa.NEW_VERSION_AVAILABLE)).toBeNull();
  });
});
