// Zod issues of the packages/domain schemas, turned into form messages in the user's language.
// The schemas speak to API clients in English (schemas/messages.ts: "Name is required - ...",
// "at most 512 characters", "must be a number from -90 to 90"), so the shape of each issue and
// the numbers in it are read here and rendered from `collection.issues.*`; anything not
// recognised gets the generic "invalid value" of its field rather than English text.
import type { TFunction } from '../../i18n/translator.ts';

/** The part of a zod issue we read (structural, so the client needs no zod import). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  format?: string;
}

/** What the editor needs of a domain schema: `safeParse` with zod's result shape. */
export interface FormSchema<Out> {
  safeParse(value: unknown): { success: true; data: Out } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** Field path → message; the first issue of a field wins. `''` holds issues about the whole form. */
export type FormErrors = Record<string, string>;

export interface IssueText {
  key: string;
  values?: Record<string, string | number>;
}

const RANGE = /from (-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)/;
const AT_MOST = /at most (\d+) characters/;
const AT_LEAST_CHARS = /at least (\d+) characters/;

export function issueText(issue: SchemaIssue): IssueText {
  const { code, message } = issue;
  const min = issue.minimum !== undefined ? Number(issue.minimum) : undefined;
  const max = issue.maximum !== undefined ? Number(issue.maximum) : undefined;
  if (code === 'too_small' && issue.origin === 'string') return min !== undefined && min <= 1 ? { key: 'required' } : { key: 'tooShort', values: { min: min ?? 1 } };
  if (code === 'too_big' && issue.origin === 'string') return { key: 'tooLong', values: { max: max ?? 0 } };
  if (code === 'too_small' && min !== undefined) return { key: 'atLeast', values: { min } };
  if (code === 'too_big' && max !== undefined) return { key: 'atMost', values: { max } };
  if (code === 'invalid_format' && issue.format === 'email') return { key: 'email' };
  if (/ is required - /.test(message)) return { key: 'required' };
  const range = RANGE.exec(message);
  if (range && !/date/.test(message)) {
    return { key: /whole number/.test(message) ? 'wholeRange' : 'range', values: { min: Number(range[1]), max: Number(range[2]) } };
  }
  const atMost = AT_MOST.exec(message);
  if (atMost) return { key: 'tooLong', values: { max: Number(atMost[1]) } };
  const atLeast = AT_LEAST_CHARS.exec(message);
  if (atLeast) return { key: 'tooShort', values: { min: Number(atLeast[1]) } };
  if (/whole number/.test(message)) return { key: 'wholeNumber' };
  if (/must be a number|a number is expected/.test(message)) return { key: 'number' };
  if (/date/.test(message)) return { key: 'date' };
  if (/true or false/.test(message)) return { key: 'boolean' };
  return { key: 'invalid' };
}

/**
 * The field an issue belongs to: its first path segment ("attributes" keeps its key: "attributes.x"),
 * or the whole path when it goes through a list ("form.schedules.0.end"), so each row of a list of
 * sub-forms shows its own problems.
 */
export function issueField(path: readonly PropertyKey[]): string {
  const [first, second] = path;
  if (first === undefined) return '';
  if (path.some((segment) => typeof segment === 'number')) return path.map(String).join('.');
  return first === 'attributes' && second !== undefined ? `attributes.${String(second)}` : String(first);
}

/**
 * A screen's own wording for some fields' problems (the spec's "type a name and surname"):
 * given the field and the kind of problem, its text, or undefined for the generic one.
 */
export type IssueMessage = (field: string, issue: IssueText) => string | undefined;

export function formErrors(issues: readonly SchemaIssue[], t: TFunction, own?: IssueMessage): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const field = issueField(issue.path);
    if (field in errors) continue;
    const text = issueText(issue);
    errors[field] = own?.(field, text) ?? t(`collection.issues.${text.key}`, text.values);
  }
  return errors;
}
