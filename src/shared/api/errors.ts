import { z } from 'zod';
import { text } from '../text';

/** Every error the API sends is `{message}` with a 4xx/5xx status (never a stack trace). */
export const apiErrorSchema = z.object({ message: text() });
export type ApiError = z.infer<typeof apiErrorSchema>;
