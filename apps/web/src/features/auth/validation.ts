// Client checks of the account forms (spec §5, §9): name ≥ 3, username/e-mail ≥ 4,
// password ≥ 4 typed twice. Each returns the i18n key of the problem, or null.

export const MIN_NAME = 3;
export const MIN_EMAIL = 4;
export const MIN_PASSWORD = 4;

export interface PasswordProblems {
  password: string | null;
  confirm: string | null;
}

export function passwordProblems(password: string, confirm: string): PasswordProblems {
  return {
    password: !password ? 'forms.passwordRequired' : password.length < MIN_PASSWORD ? 'forms.passwordShort' : null,
    confirm: !confirm ? 'forms.confirmRequired' : confirm !== password ? 'forms.passwordMismatch' : null,
  };
}

export interface RegistrationProblems extends PasswordProblems {
  name: string | null;
  email: string | null;
}

export function registrationProblems(name: string, email: string, password: string, confirm: string): RegistrationProblems {
  return {
    name: !name.trim() ? 'forms.nameRequired' : name.trim().length < MIN_NAME ? 'forms.nameShort' : null,
    email: !email.trim() ? 'forms.emailRequired' : email.trim().length < MIN_EMAIL ? 'forms.emailShort' : null,
    ...passwordProblems(password, confirm),
  };
}

export const hasProblems = (problems: object) => Object.values(problems).some((p) => p !== null);

/** The `{{min}}` value of a problem's text. */
export function minFor(key: string): number {
  if (key === 'forms.nameShort') return MIN_NAME;
  if (key === 'forms.emailShort') return MIN_EMAIL;
  return MIN_PASSWORD;
}
