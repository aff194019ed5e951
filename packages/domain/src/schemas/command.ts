// Bodies of the saved commands (POST /api/commands, PUT /api/commands/{id}) and of sending a
// command (POST /api/commands/send). `attributes` holds the command's parameters; an empty
// array, which some clients send, counts as none.
import { z } from '../zod.ts';
import { ATTRIBUTES_MAX_BYTES } from './attributes.ts';
import { attributesObject, flag, OBJECT_EXPECTED, optionalText } from './fields.ts';
import { textProblem } from './text.ts';

export const COMMAND_TYPE_MAX = 128;
/** Parameters travel to devices; a quarter of an entity's attribute budget is plenty. */
export const COMMAND_PARAMETERS_MAX_BYTES = ATTRIBUTES_MAX_BYTES / 4;

export const TYPE_REQUIRED = 'Type is required - fill in the type field';

/** The command type: any non-blank text Traccar could encode. */
export const commandType = z.string({ error: TYPE_REQUIRED }).transform((value, ctx) => {
  const text = value.trim();
  const problem = text === '' ? TYPE_REQUIRED : text.length > COMMAND_TYPE_MAX ? `at most ${COMMAND_TYPE_MAX} characters` : textProblem(text);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return text;
});

export const commandParameters = z
  .union([z.tuple([]), attributesObject(COMMAND_PARAMETERS_MAX_BYTES), z.null()], { error: 'a JSON object is expected' })
  .transform((v): Record<string, unknown> => (v === null || Array.isArray(v) ? {} : v));

export const commandSchema = z.object(
  {
    description: optionalText().optional(),
    type: commandType,
    textChannel: flag.optional(),
    attributes: commandParameters.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const commandUpdateSchema = commandSchema.partial();

export const COMMAND_WRITABLE_FIELDS = Object.keys(commandSchema.shape);

/** Clients send id -1 (or 0) for "not a saved command" and deviceId 0 with `?groupId=`. */
const optionalPositiveId = z
  .union([z.number(), z.string(), z.null()], { error: 'an id is expected' })
  .transform((value, ctx) => {
    if (value === null || value === '') return null;
    const n = typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: 'an id is expected' });
      return z.NEVER;
    }
    return n > 0 ? n : null;
  });

/** A send request: a saved command (`id`) or an ad-hoc one (`type`, checked by the server after its rights). */
export const commandSendSchema = z.object(
  {
    id: optionalPositiveId.optional(),
    deviceId: optionalPositiveId.optional(),
    description: optionalText().optional(),
    type: commandType.optional(),
    textChannel: flag.optional(),
    attributes: commandParameters.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export type CommandInput = z.output<typeof commandSchema>;
export type CommandUpdate = z.output<typeof commandUpdateSchema>;
export type CommandSend = z.output<typeof commandSendSchema>;
