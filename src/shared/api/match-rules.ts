import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { trackSchema } from './playlists';

/**
 * Match rules (issue 14): a fix the person made on a match row, remembered for every later match from
 * the same source service to the same destination service. GET /api/match-rules, PATCH and DELETE
 * /api/match-rules/:id, GET /api/match-rules/:id/search?q= (destination tracks to choose from).
 */

/** The reason a row carries when one of the person's rules decided it. */
export const YOUR_RULE_REASON = 'Your rule';

export const matchRuleSchema = z.object({
  id: text(),
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
  /** The source song the rule is for (matched by ISRC when it has one, else by title and artists). */
  sourceTrack: trackSchema,
  /** "choose": add `destinationTrack`; "skip": the song is not on the destination service. */
  action: z.enum(['choose', 'skip']),
  destinationTrack: trackSchema.nullable(),
  createdAt: text(),
  updatedAt: text(),
});
export type MatchRule = z.infer<typeof matchRuleSchema>;

export const matchRuleListSchema = z.object({ rules: z.array(matchRuleSchema) });
export type MatchRuleList = z.infer<typeof matchRuleListSchema>;

export const matchRuleIdSchema = z.uuid({ error: 'That match rule does not exist.' });

/**
 * PATCH /api/match-rules/:id: the song is not on the destination service, or it is always this destination
 * track (an id from the rule's search: the server reads the track from the service, never from the body).
 */
export const matchRuleEditSchema = z.union([
  z.object({ action: z.literal('skip') }),
  z.object({ action: z.literal('choose'), trackId: text().trim().min(1, 'Choose a track').max(200) }),
]);
export type MatchRuleEdit = z.infer<typeof matchRuleEditSchema>;
