// Shared sessions: the countdown of spec §9 and the expiry of spec §4 (session cleared,
// "Sua sessão expirou!" dialog, exit reloads).
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { initTestI18n, texts } from '../i18n/test-i18n.ts';
import { useSession } from './session-store.ts';
import { resetExpiryForTests, shareExpiration, useShareCountdown } from './session-expiry-countdown.ts';
import { SessionExpiry } from './session-expiry.tsx';

const pt = texts['pt-BR'];

function user(attributes: Record<string, unknown>, expirationTime: string | null): User {
  return { id: 9, name: 'Visitante', email: 'share-1', attributes, expirationTime } as unknown as User;
}

function Countdown() {
  const left = useShareCountdown();
  return <span data-testid="left">{left ? `${left.value} ${left.unit}` : 'none'}</span>;
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeAll(() => initTestI18n());
beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') });
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  vi.stubGlobal('fetch', fetchMock);
  resetExpiryForTests();
  useSession.setState({ user: null, expired: false });
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('shared session expiry', () => {
  it('only shared users with an expiration count down', () => {
    expect(shareExpiration(user({}, '2030-01-01T13:00:00Z'))).toBeNull();
    expect(shareExpiration(user({ isShared: 1 }, null))).toBeNull();
    expect(shareExpiration(user({ isShared: 1 }, '2030-01-01T13:00:00Z'))).toBe(Date.parse('2030-01-01T13:00:00Z'));
    useSession.setState({ user: user({}, null) });
    render(<Countdown />);
    expect(screen.getByTestId('left').textContent).toBe('none');
  });

  it('counts down in the units of spec §9, then clears the session and shows the dialog', async () => {
    localStorage.setItem('rememberme', btoa('tok'));
    useSession.setState({ user: user({ isShared: 1, deviceId: 3 }, '2030-01-01T12:01:05Z') });
    render(
      <>
        <Countdown />
        <SessionExpiry />
      </>,
    );
    expect(screen.getByTestId('left').textContent).toBe('2 minutes');
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByTestId('left').textContent).toBe('55 seconds');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(56_000);
    });
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(pt.session.expired);
    expect(dialog.textContent).toContain(pt.session.expiredTitle);
    expect(useSession.getState().expired).toBe(true);
    expect(localStorage.getItem('rememberme')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/session');
    expect((fetchMock.mock.calls[0]![1] as RequestInit).method).toBe('DELETE');

    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    screen.getByRole('button', { name: pt.session.exit }).click();
    expect(reload).toHaveBeenCalled();
  });
});
