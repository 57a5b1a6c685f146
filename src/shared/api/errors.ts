import { z } from 'zod';

/** Every error the API sends is `{message}` with a 4xx/5xx status (never a stack trace). */
export const apiErrorSchema = z.object({ message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;
