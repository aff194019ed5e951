// The user form's own wording of some problems: the spec's name / e-mail / password messages
// (shared with the registration form's `forms.*` texts) and the fields whose rule the generic
// "invalid value" would not explain.
import type { TFunction } from '../../i18n/translator.ts';
import type { IssueMessage } from '../../ui/collection/form-issues.ts';

const ACCOUNT: Record<string, { required: string; tooShort: string }> = {
  name: { required: 'forms.nameRequired', tooShort: 'forms.nameShort' },
  email: { required: 'forms.emailRequired', tooShort: 'forms.emailShort' },
  password: { required: 'forms.passwordRequired', tooShort: 'forms.passwordShort' },
};

const SPECIFIC: Record<string, string> = {
  billingTaxId: 'userEditor.errors.taxId',
  resellerDomain: 'userEditor.errors.domain',
  telegramChatId: 'userEditor.errors.chatId',
  billingTrustUnlockDays: 'userEditor.errors.days',
  billingSuspensionDays: 'userEditor.errors.days',
};

export function issueMessage(t: TFunction): IssueMessage {
  return (field, issue) => {
    const account = ACCOUNT[field];
    if (account && (issue.key === 'required' || issue.key === 'tooShort')) return t(account[issue.key], issue.values);
    if (issue.key === 'invalid' && SPECIFIC[field]) return t(SPECIFIC[field]);
    return undefined;
  };
}
