import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';

/**
 * Sniper links (spec sections 2, 3, 5): the owner's API under /api/links and the public
 * landing page's API under /api/public/links/:slug.
 */

export const LINK_MESSAGES = {
  missingTitle: 'Missing information',
  missingName: 'Please enter a name for your link',
  createFailedTitle: 'Error creating link',
  createFailed: 'There was a problem creating your sniper link',
  emailRequiredTitle: 'Email required',
  emailRequired: 'Please enter your email to sign up',
  invalidEmail: 'Please enter a valid email address',
  inactive: 'This link is no longer active.',
  notFound: 'That link does not exist.',
  signedUp: "You're signed up!",
  alreadySignedUp: "You're already signed up",
} as const;

export const MAX_LINK_NAME_LENGTH = 100;
export const MAX_LINK_URL_LENGTH = 2048;
export const MAX_SIGNUP_EMAIL_LENGTH = 254;
/** Days the owner's chart covers, today included. */
export const LINK_STATS_DAYS = 30;

export const createLinkRequestSchema = z.object({
  name: text({ error: LINK_MESSAGES.missingName })
    .trim()
    .min(1, LINK_MESSAGES.missingName)
    .max(MAX_LINK_NAME_LENGTH, `The name must be at most ${MAX_LINK_NAME_LENGTH} characters`),
  url: text({ error: 'The track or playlist URL must be text' })
    .max(MAX_LINK_URL_LENGTH, 'This is too long to be a Spotify or Apple Music link.')
    .trim()
    .optional(),
});
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>;

export const serviceRefSchema = z.object({ id: text(), url: text() });

/** What a link points at, resolved on both services; a service is absent when no equivalent was found. */
export const linkTargetSchema = z.object({
  kind: z.enum(['track', 'playlist']),
  spotify: serviceRefSchema.optional(),
  apple: serviceRefSchema.optional(),
  title: text(),
  artists: z.array(text()),
  imageUrl: text().optional(),
});
export type LinkTarget = z.infer<typeof linkTargetSchema>;

export const linkSchema = z.object({
  id: text(),
  slug: text(),
  name: text(),
  active: z.boolean(),
  createdAt: text(),
  target: linkTargetSchema.nullable(),
  /** Distinct visitor-hours that opened the landing page. */
  views: z.number().int().nonnegative(),
  /** E-mail signups. */
  followers: z.number().int().nonnegative(),
  /** followers / views; 0 while there are no views. */
  signupRate: z.number().nonnegative(),
});
export type LinkDto = z.infer<typeof linkSchema>;
export const linkListSchema = z.array(linkSchema);

export const updateLinkRequestSchema = z.object({
  active: z.boolean({ error: 'active must be true or false' }),
});

export const linkStatsSchema = z.object({
  days: z.array(
    z.object({
      /** `YYYY-MM-DD` in UTC. */
      date: text(),
      views: z.number().int().nonnegative(),
      signups: z.number().int().nonnegative(),
    }),
  ),
});
export type LinkStats = z.infer<typeof linkStatsSchema>;

/** The public landing page: the "Open in" buttons always work, with a search link where nothing matched. */
export const publicLinkSchema = z.object({
  slug: text(),
  name: text(),
  target: linkTargetSchema.nullable(),
  open: z.record(serviceIdSchema, z.object({ url: text(), exact: z.boolean() })),
});
export type PublicLink = z.infer<typeof publicLinkSchema>;

export const linkSignupRequestSchema = z.object({
  email: text({ error: LINK_MESSAGES.emailRequired })
    .max(MAX_SIGNUP_EMAIL_LENGTH, LINK_MESSAGES.invalidEmail)
    .trim()
    .min(1, LINK_MESSAGES.emailRequired)
    .pipe(z.email(LINK_MESSAGES.invalidEmail)),
});
export const linkSignupResponseSchema = z.object({
  message: text(),
  alreadySignedUp: z.boolean(),
});
export type LinkSignupResponse = z.infer<typeof linkSignupResponseSchema>;
