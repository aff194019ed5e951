// The editor dialog of a list-and-editor screen: one entity's fields (given by the screen),
// checked with the entity's zod schema from packages/domain before anything is sent, each
// problem shown under its field in the user's language (form-issues.ts). Create mode for a new
// object (id -1, Traccar's convention), edit mode otherwise. While saving every field and both
// buttons are disabled and the dialog cannot be closed; a refusal shows the server's message
// and keeps what was typed. A screen may word some fields' problems itself (`issueMessage`),
// hear of them (`onInvalid`, to show the tab holding one), refuse saving with a reason
// (`locked`), and add footer buttons (`actions`).
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formErrors, type FormErrors, type FormSchema, type IssueMessage } from './form-issues.ts';
import { saveErrorText } from './save-error.ts';
import { NEW_ID, type Entity } from './use-collection.ts';
// Its fieldset's hint and error colours (a dialog may open where no list was drawn).
import './collection.css';

/** Mantine's default error red is too light for small text on white (WCAG AA). */
export const ERROR_PROPS = { style: { color: '#b42318' } };

export interface EditorForm<V> {
  values: V;
  set<K extends keyof V>(field: K, value: V[K]): void;
  error(field: string): string | undefined;
  /** Props of a Mantine text input bound to a text field. */
  text(field: keyof V & string): {
    value: string;
    onChange(e: { currentTarget: { value: string } }): void;
    error: string | undefined;
    errorProps: typeof ERROR_PROPS;
  };
}

export interface EditorDialogProps<V extends Entity, Out> {
  opened: boolean;
  /** The object being edited, or a new one with id -1. */
  initial: V;
  schema: FormSchema<Out>;
  /** Create / edit titles (the screen knows the kind of object). */
  title: { create: string; edit: string };
  /** Sends the object; a rejection is shown in the dialog. */
  onSave(values: V, parsed: Out): Promise<unknown>;
  onClose(): void;
  children(form: EditorForm<V>): ReactNode;
  /** The screen's own wording for some fields' problems (form-issues.ts). */
  issueMessage?: IssueMessage;
  /** Told of the problems found before saving (e.g. to show the tab holding the first one). */
  onInvalid?(errors: FormErrors): void;
  /** Set when this object may not be saved (shown as the form message; save is disabled). */
  locked?: string | null;
  /** More buttons for the footer, on its left (actions on the object besides saving). */
  actions?: ReactNode;
  size?: 'md' | 'lg' | 'xl';
}

export const isNew = (entity: Entity) => entity.id === NEW_ID || entity.id <= 0;

function EditorBody<V extends Entity, Out>({
  initial, schema, onSave, onClose, children, busy, setBusy, issueMessage, onInvalid, locked, actions,
}: Omit<EditorDialogProps<V, Out>, 'opened' | 'title' | 'size'> & {
  busy: boolean;
  setBusy(busy: boolean): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const set = <K extends keyof V>(field: K, value: V[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A corrected field stops showing its old message (and so do the fields inside it:
    // "form.schedules.0.end" when `form` is set).
    setErrors((e) => {
      const name = String(field);
      const kept = Object.entries(e).filter(([key]) => key !== name && !key.startsWith(`${name}.`));
      return kept.length === Object.keys(e).length ? e : Object.fromEntries(kept);
    });
  };
  const form: EditorForm<V> = {
    values,
    set,
    error: (field) => errors[field],
    text: (field) => ({
      value: values[field] === null || values[field] === undefined ? '' : String(values[field]),
      onChange: (e) => set(field, e.currentTarget.value as V[typeof field]),
      error: errors[field],
      errorProps: ERROR_PROPS,
    }),
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    if (locked) return;
    const result = schema.safeParse(values);
    if (!result.success) {
      const found = formErrors(result.error.issues, t, issueMessage);
      setErrors(found);
      setFailure(found[''] ?? t('collection.checkForm'));
      onInvalid?.(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSave(values, result.data);
      onClose();
    } catch (err) {
      setFailure(saveErrorText(t, err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={busy} className="cl-fieldset">{children(form)}</fieldset>
      {(locked ?? failure) && <Alert color="red" role="alert" mt="sm" data-testid="editor-failure">{locked ?? failure}</Alert>}
      <Group justify="space-between" mt="md" gap="xs">
        <Group gap="xs">{actions}</Group>
        <Group gap="xs" justify="flex-end" ml="auto">
          <Button variant="default" onClick={onClose} disabled={busy}>{t('collection.cancel')}</Button>
          <Button type="submit" loading={busy} disabled={!!locked}>{t('collection.save')}</Button>
        </Group>
      </Group>
    </form>
  );
}

export function EditorDialog<V extends Entity, Out>({ opened, title, size = 'lg', ...body }: EditorDialogProps<V, Out>) {
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (!busy) body.onClose();
  };
  return (
    <Modal opened={opened} onClose={close} size={size} fullScreen={mobile} zIndex={300} closeOnEscape={!busy} closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': t('collection.close'), disabled: busy }} title={isNew(body.initial) ? title.create : title.edit}>
      {/* Keyed by the object, so opening another one starts from its own values. */}
      {opened && <EditorBody key={body.initial.id} {...body} busy={busy} setBusy={setBusy} />}
    </Modal>
  );
}
