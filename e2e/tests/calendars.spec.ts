// Calendars in the browser (issue 14 item 5): the administrator opens them from the user menu,
// creates a weekly calendar and sees its next occurrences previewed, finds it in the list with
// its next occurrence, edits it, and deletes it; the server holds the iCalendar Traccar reads.
// Screenshots at desktop and 390 px, axe clean.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Calendar } from '@rastro/domain/entities';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

async function openCalendars(page: Page): Promise<Locator> {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').getByRole('menuitem', { name: t('menu.user.calendars') }).click();
  const dialog = page.getByRole('dialog', { name: t('calendars.title') });
  await expect(dialog.getByTestId('calendars-dialog')).toBeVisible({ timeout: 15_000 });
  return dialog;
}

const editorOf = (page: Page) => page.getByRole('dialog', { name: new RegExp(`^(${t('calendars.editor.create')}|${t('calendars.editor.edit')})$`) });

async function choose(page: Page, editor: Locator, label: string, option: string) {
  await editor.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

const decoded = (c: Calendar) => Buffer.from(c.data, 'base64').toString('utf8');

test.describe('calendars', () => {
  const name = `Expediente ${uniqueSuffix()}`;
  test.afterAll(async () => {
    const admin = await Api.admin();
    for (const c of await admin.get<Calendar[]>('/api/calendars')) if (c.name.startsWith(name)) await admin.context.delete(`/api/calendars/${c.id}`);
    await admin.dispose();
  });

  test('create a weekly calendar, see its preview, edit it and delete it', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const dialog = await openCalendars(page);
    await dialog.getByRole('button', { name: t('calendars.add') }).click();
    const editor = editorOf(page);
    await editor.getByLabel(t('calendars.editor.name')).fill(name);
    await editor.getByTestId('calendar-schedule-0-start').fill('2030-01-07T08:00');
    await editor.getByTestId('calendar-schedule-0-end').fill('2030-01-07T18:00');
    await choose(page, editor, t('calendars.editor.repeat'), t('calendars.editor.repeats.weekly'));
    await expect(editor.getByRole('checkbox', { name: t('calendars.editor.days.MO') })).toBeChecked();
    await editor.getByRole('checkbox', { name: t('calendars.editor.days.FR') }).check();
    await choose(page, editor, t('calendars.editor.expiry'), t('calendars.editor.expiries.count'));
    await editor.getByLabel(t('calendars.editor.count'), { exact: true }).fill('8');
    const preview = editor.getByTestId('calendar-preview');
    await expect(preview.getByRole('listitem')).toHaveCount(5);
    await expect(preview.getByRole('listitem').first()).toContainText('2030');
    await settled(page);
    await shot(page, 'calendar-editor');
    await expectAccessible(page, 'calendar editor (weekly, preview)');
    await editor.getByRole('button', { name: t('collection.save') }).click();
    await expect(editor).toBeHidden({ timeout: 15_000 });

    const admin = await Api.admin();
    const stored = (await admin.get<Calendar[]>('/api/calendars')).find((c) => c.name === name)!;
    expect(decoded(stored)).toMatch(/DTSTART;TZID=[\w/+-]+:20300107T080000\r\nDTEND;TZID=[\w/+-]+:20300107T180000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,FR;COUNT=8\r\n/);

    const row = dialog.getByRole('option').filter({ hasText: name });
    await expect(row).toContainText('2030');
    await dialog.getByRole('searchbox').fill(name);
    await expect(dialog.getByRole('option')).toHaveCount(1);
    await row.click();
    await settled(page);
    await shot(page, 'calendars');
    await expectAccessible(page, 'calendars manager');

    await dialog.getByRole('button', { name: t('calendars.edit') }).click();
    await expect(editor.getByLabel(t('calendars.editor.name'))).toHaveValue(name);
    await editor.getByLabel(t('calendars.editor.name')).fill(`${name} B`);
    await choose(page, editor, t('calendars.editor.repeat'), t('calendars.editor.repeats.daily'));
    await editor.getByRole('button', { name: t('collection.save') }).click();
    await expect(editor).toBeHidden({ timeout: 15_000 });
    await expect(dialog.getByRole('option').filter({ hasText: `${name} B` })).toBeVisible();
    const edited = (await admin.get<Calendar[]>('/api/calendars')).find((c) => c.id === stored.id)!;
    expect(edited.name).toBe(`${name} B`);
    expect(decoded(edited)).toContain('RRULE:FREQ=DAILY;COUNT=8\r\n');

    await dialog.getByRole('button', { name: t('calendars.delete') }).click();
    await expect(dialog.getByRole('alertdialog')).toContainText(t('calendars.deleteConfirm', { name: `${name} B` }));
    await settled(page);
    await shot(page, 'calendars-delete');
    await expectAccessible(page, 'calendar delete confirmation');
    await dialog.getByRole('alertdialog').getByRole('button', { name: t('calendars.deleteYes') }).click();
    await expect(dialog.getByText(t('calendars.deleted', { name: `${name} B` }))).toBeVisible();
    expect((await admin.get<Calendar[]>('/api/calendars')).some((c) => c.id === stored.id)).toBe(false);
    await admin.dispose();
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the manager and the editor fill the phone screen', async ({ page }) => {
      const admin = await Api.admin();
      const ics = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID=America/Sao_Paulo:20300107T080000\r\nDTEND;TZID=America/Sao_Paulo:20300107T180000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
      await admin.post('/api/calendars', { name: `${name} phone`, data: Buffer.from(ics).toString('base64') });
      const custom = ics.replace('BYDAY=MO,WE,FR', 'BYDAY=MO;INTERVAL=2');
      await admin.post('/api/calendars', { name: `${name} custom`, data: Buffer.from(custom).toString('base64') });
      await admin.dispose();
      await signIn(page, 'admin', ADMIN_PASSWORD);
      const dialog = await openCalendars(page);
      await dialog.getByRole('option').filter({ hasText: `${name} phone` }).click();
      await settled(page);
      await expectNoHorizontalScroll(page);
      await shot(page, 'calendars');
      await expectAccessible(page, 'calendars manager at 390 px');
      await dialog.getByRole('button', { name: t('calendars.edit') }).click();
      const editor = editorOf(page);
      await expect(editor.getByRole('checkbox', { name: t('calendars.editor.days.WE') })).toBeChecked();
      await expect(editor.getByTestId('calendar-preview').getByRole('listitem')).toHaveCount(5);
      await settled(page);
      await expectNoHorizontalScroll(page);
      await shot(page, 'calendar-editor');
      await expectAccessible(page, 'calendar editor at 390 px');
      await editor.getByRole('button', { name: t('collection.cancel') }).click();

      // Rules the editor cannot show: the schedules are read-only, with a note.
      await dialog.getByRole('option').filter({ hasText: `${name} custom` }).click();
      await expect(dialog.getByRole('option').filter({ hasText: `${name} custom` })).toContainText(t('calendars.custom'));
      await dialog.getByRole('button', { name: t('calendars.edit') }).click();
      await expect(editor.getByTestId('calendar-read-only')).toContainText(t('calendars.editor.readOnly'));
      await settled(page);
      await shot(page, 'calendar-read-only');
      await expectAccessible(page, 'read-only calendar at 390 px');
    });
  });
});
