// The editor's six tabs and which one holds each form field (the tab of the first problem opens
// when saving is refused).
export type EditorTab = 'account' | 'preferences' | 'address' | 'permissions' | 'billing' | 'communication';

/** The tab holding a form field (the first problem's tab is shown when saving is refused). */
export function tabOf(field: string): EditorTab {
  if (['name', 'email', 'password', 'phone'].includes(field)) return 'account';
  if (['zip', 'street', 'number', 'complement', 'district', 'city', 'state'].includes(field)) return 'address';
  if (field.startsWith('billing')) return 'billing';
  if (['personalPhone', 'commercialPhone', 'whatsapp', 'contactEmail', 'telegramChatId'].includes(field)) return 'communication';
  if (['disabled', 'administrator', 'readonly', 'deviceReadonly', 'limitCommands', 'deviceLimit', 'userLimit', 'expirationTime',
    'reseller', 'subReseller', 'resellerDomain', 'resellerLimit', 'advancedPerms'].includes(field)) return 'permissions';
  return 'preferences';
}
