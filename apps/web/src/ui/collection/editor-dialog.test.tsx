// The shared editor dialog with a real domain schema (groups): the schema's problems under
// their fields in the user's language, create and edit modes, everything disabled while saving,
// the server's refusal shown with what was typed kept.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TextInput } from '@mantine/core';
import { groupSchema } from '@rastro/domain/schemas/group';
import { HttpError } from '../../api/http.ts';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { EditorDialog } from './editor-dialog.tsx';
import { newClient, Providers } from './test-kit.tsx';
import { NEW_ID } from './use-collection.ts';

interface Group {
  id: number;
  name: string;
  groupId: number;
  attributes: Record<string, unknown>;
}

const pt = texts['pt-BR'].collection;
const title = { create: 'Novo grupo', edit: 'Editar grupo' };

function open(initial: Group, onSave: (v: Group) => Promise<unknown>, onClose = vi.fn()) {
  render(
    <Providers client={newClient()}>
      <EditorDialog opened initial={initial} schema={groupSchema} title={title} onSave={onSave} onClose={onClose}>
        {(form) => <TextInput label="Nome" {...form.text('name')} />}
      </EditorDialog>
    </Providers>,
  );
  return onClose;
}

beforeAll(() => initTestI18n('pt-BR'));
afterEach(cleanup);

describe('editor dialog', () => {
  it('creates: checks the schema first and shows its problem under the field, in the user language', async () => {
    const onSave = vi.fn(async () => undefined);
    open({ id: NEW_ID, name: '', groupId: 0, attributes: {} }, onSave);
    expect(screen.getByText('Novo grupo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: pt.save }));
    expect(await screen.findByText(pt.issues.required)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(pt.checkForm);
    expect(screen.getByLabelText('Nome').getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();
    // Typing clears the field's message.
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Frota' } });
    expect(screen.queryByText(pt.issues.required)).toBeNull();
  });

  it('edits: disables everything while saving, then closes', async () => {
    let finish: () => void = () => undefined;
    const onSave = vi.fn((_values: Group) => new Promise<void>((r) => { finish = r; }));
    const onClose = open({ id: 4, name: 'Frota', groupId: 0, attributes: {} }, onSave);
    expect(screen.getByText('Editar grupo')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Frota Sul' } });
    fireEvent.click(screen.getByRole('button', { name: pt.save }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0]![0]).toEqual({ id: 4, name: 'Frota Sul', groupId: 0, attributes: {} });
    // Disabled through their fieldset, so every field a screen adds is covered (happy-dom
    // does not apply a fieldset's disabled state to :disabled, browsers do).
    const fieldset = () => screen.getByLabelText('Nome').closest('fieldset')!;
    expect(fieldset().disabled).toBe(true);
    expect((screen.getByRole('button', { name: pt.cancel }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: pt.save }).hasAttribute('data-loading')).toBe(true);
    finish();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows the server refusal of a 4xx and keeps the form open with what was typed', async () => {
    const onSave = vi.fn(async () => { throw new HttpError(400, 'HTTP_400', 'Invalid group - a group cannot be its own parent\nstack'); });
    const onClose = open({ id: 4, name: 'Frota', groupId: 0, attributes: {} }, onSave);
    fireEvent.click(screen.getByRole('button', { name: pt.save }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid group - a group cannot be its own parent');
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Frota');
    expect(screen.getByLabelText('Nome').closest('fieldset')!.disabled).toBe(false);
  });

  it('translates a refusal that has a catalogue code, and cancels', async () => {
    const onSave = vi.fn(async () => { throw new HttpError(403, 'ACCOUNT_IS_READONLY', 'Account is readonly'); });
    const onClose = open({ id: 4, name: 'Frota', groupId: 0, attributes: {} }, onSave);
    fireEvent.click(screen.getByRole('button', { name: pt.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(texts['pt-BR'].errors.ACCOUNT_IS_READONLY);
    fireEvent.click(screen.getByRole('button', { name: pt.cancel }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('editor dialog: what a screen adds', () => {
  function openWith(props: Partial<Parameters<typeof EditorDialog<Group, unknown>>[0]>, onSave = vi.fn(async () => undefined)) {
    render(
      <Providers client={newClient()}>
        <EditorDialog opened initial={{ id: NEW_ID, name: '', groupId: 0, attributes: {} }} schema={groupSchema} title={title} onSave={onSave}
          onClose={vi.fn()} {...props}>
          {(form) => <TextInput label="Nome" {...form.text('name')} />}
        </EditorDialog>
      </Providers>,
    );
    return onSave;
  }

  it('words a field\'s problem its own way and tells the screen which fields failed', async () => {
    const onInvalid = vi.fn();
    const issueMessage = vi.fn((field: string, issue: { key: string }) => (field === 'name' && issue.key === 'required' ? 'Digite um nome' : undefined));
    openWith({ issueMessage, onInvalid });
    fireEvent.click(screen.getByRole('button', { name: pt.save }));
    expect(await screen.findByText('Digite um nome')).toBeTruthy();
    expect(screen.queryByText(pt.issues.required)).toBeNull();
    expect(onInvalid).toHaveBeenCalledWith({ name: 'Digite um nome' });
  });

  it('a locked object shows why and is never saved; extra actions sit in the footer', async () => {
    const onSave = openWith({ locked: 'Administrador superior', actions: <button type="button">Testar</button> });
    expect(screen.getByRole('alert').textContent).toBe('Administrador superior');
    const save = screen.getByRole('button', { name: pt.save }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.submit(save.closest('form')!);
    await new Promise((r) => setTimeout(r, 10));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Testar' })).toBeTruthy();
  });
});
