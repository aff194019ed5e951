// The shared list: its loading / error / empty texts in the user's language, search over any
// field or attribute, sortable columns, keyboard navigation and accessible names.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../api/http.ts';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { CollectionList, type Column } from './collection-list.tsx';
import { fakeLayout, newClient, Providers } from './test-kit.tsx';
import type { CollectionState } from './use-collection.ts';

interface User {
  id: number;
  name: string;
  email: string;
  administrator: boolean;
  attributes: Record<string, unknown>;
}

const users: User[] = [
  { id: 1, name: 'Carla', email: 'carla@x.com', administrator: false, attributes: { city: 'Curitiba' } },
  { id: 2, name: 'Ana', email: 'ana@x.com', administrator: true, attributes: {} },
  { id: 3, name: 'Bruno', email: 'bruno@x.com', administrator: false, attributes: { city: 'São Paulo' } },
];
const columns: Column<User>[] = [
  { key: 'name', label: 'Nome', value: (u) => u.name },
  { key: 'email', label: 'E-mail', value: (u) => u.email, wide: true },
  { key: 'administrator', label: 'Admin', value: (u) => u.administrator },
];
const pt = texts['pt-BR'].collection;

function show(state: CollectionState, items: User[] = users, extra: { onOpen?(u: User): void; onRetry?(): void; error?: unknown } = {}) {
  render(
    <Providers client={newClient()}>
      <CollectionList label="Usuários" items={items} state={state} columns={columns} {...extra} />
    </Providers>,
  );
}
const rowNames = () => screen.getAllByRole('option').map((o) => o.firstElementChild!.textContent);

let restoreLayout: () => void;
beforeAll(async () => {
  await initTestI18n('pt-BR');
  restoreLayout = fakeLayout();
});
afterAll(() => restoreLayout());
afterEach(cleanup);

describe('collection list', () => {
  it('says it is loading, and that the list failed with a retry', () => {
    show('loading', []);
    expect(screen.getByRole('status').textContent).toContain(pt.loading);
    cleanup();
    const onRetry = vi.fn();
    show('error', [], { onRetry, error: new HttpError(0, 'CONNECTION_ERROR', '') });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(pt.loadFailed);
    expect(alert.textContent).toContain(texts['pt-BR'].errors.CONNECTION_ERROR);
    fireEvent.click(within(alert).getByRole('button', { name: pt.retry }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('keeps the last list after a failed re-read, saying it may be out of date', () => {
    const onRetry = vi.fn();
    show('ready', users, { onRetry, error: new HttpError(0, 'CONNECTION_ERROR', '') });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(pt.refreshFailed);
    expect(rowNames()).toEqual(['Carla', 'Ana', 'Bruno']);
    fireEvent.click(within(alert).getByRole('button', { name: pt.retry }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('tells an empty list from a search that matches nothing', () => {
    show('empty', []);
    expect(screen.getByRole('status').textContent).toBe(pt.empty);
    cleanup();
    show('ready');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Pesquisar Usuários' }), { target: { value: 'zzz' } });
    expect(screen.getByRole('status').textContent).toBe(pt.noMatch);
  });

  it('searches any field and attribute values', () => {
    show('ready');
    expect(rowNames()).toEqual(['Carla', 'Ana', 'Bruno']);
    const search = screen.getByRole('searchbox', { name: 'Pesquisar Usuários' });
    fireEvent.change(search, { target: { value: 'sao paulo' } });
    expect(rowNames()).toEqual(['Bruno']);
    fireEvent.change(search, { target: { value: 'ana@' } });
    expect(rowNames()).toEqual(['Ana']);
    expect(screen.getByText('1 de 3')).toBeTruthy();
  });

  it('sorts by a column and flips on a second click, saying so to screen readers', () => {
    show('ready');
    const sortName = screen.getByRole('button', { name: 'Ordenar por Nome' });
    fireEvent.click(sortName);
    expect(rowNames()).toEqual(['Ana', 'Bruno', 'Carla']);
    expect(sortName.getAttribute('aria-label')).toBe('Nome, ordem crescente');
    fireEvent.click(sortName);
    expect(rowNames()).toEqual(['Carla', 'Bruno', 'Ana']);
    expect(sortName.getAttribute('aria-label')).toBe('Nome, ordem decrescente');
    // Booleans read as words.
    expect(screen.getAllByRole('option')[2]!.textContent).toContain(pt.yes);
  });

  it('moves with the keyboard and opens with Enter or a click', () => {
    const onOpen = vi.fn();
    show('ready', users, { onOpen });
    const list = screen.getByRole('listbox', { name: 'Usuários' });
    const active = () => document.getElementById(list.getAttribute('aria-activedescendant')!)!.firstElementChild!.textContent;
    expect(active()).toBe('Carla');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(active()).toBe('Ana');
    fireEvent.keyDown(list, { key: 'End' });
    expect(active()).toBe('Bruno');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(active()).toBe('Bruno');
    fireEvent.keyDown(list, { key: 'Home' });
    fireEvent.keyDown(list, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(users[0]);
    fireEvent.click(screen.getByText('Bruno'));
    expect(onOpen).toHaveBeenLastCalledWith(users[2]);
    expect(screen.getAllByRole('option')[2]!.getAttribute('aria-selected')).toBe('true');
  });

  it('with a screen-held selection, marks that row and not the keyboard position', () => {
    const onOpen = vi.fn();
    render(
      <Providers client={newClient()}>
        <CollectionList label="Usuários" items={users} state="ready" columns={columns} onOpen={onOpen} selectedId={3} />
      </Providers>,
    );
    const list = screen.getByRole('listbox', { name: 'Usuários' });
    const selected = () => screen.getAllByRole('option').filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => o.firstElementChild!.textContent);
    expect(selected()).toEqual(['Bruno']);
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    // The arrows move the highlighted position only; the selection stays until Enter or a click.
    expect(selected()).toEqual(['Bruno']);
    expect(document.getElementById(list.getAttribute('aria-activedescendant')!)!.className).toContain('cl-active');
    fireEvent.keyDown(list, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(users[1]);
  });

  it('marks the columns a phone leaves out', () => {
    show('ready');
    expect(screen.getByRole('button', { name: 'Ordenar por E-mail' }).className).toContain('cl-wide');
    expect(screen.getByRole('button', { name: 'Ordenar por Nome' }).className).not.toContain('cl-wide');
  });

  it('draws only the rows on screen for a long list', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `User ${i + 1}`, email: '', administrator: false, attributes: {} }));
    show('ready', many);
    expect(screen.getAllByRole('option').length).toBeLessThan(40);
    expect(screen.getByText('5000 itens')).toBeTruthy();
  });
});
