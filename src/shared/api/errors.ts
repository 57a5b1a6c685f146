import { z } from 'zod';
import { text } from '../text';

/** Every error the API sends is `{message}` with a 4xx/5xx status (never a stack trace). */
export const apiErrorSchema = z.object({ message: text() });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A problem with one row of a list or file the person sent (1-based, as a spreadsheet counts). */
export const rowProblemSchema = z.object({ row: z.number().int(), message: text() });
export type RowProblemDto = z.infer<typeof rowProblemSchema>;

/** A 400 about a list or file also names each row's problem: `{message, problems}`. */
export const rowProblemsErrorSchema = z.object({ problems: z.array(z.unknown()) });
