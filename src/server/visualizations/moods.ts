/**
 * Moods for the taste timeline, derived from genres by a fixed table. Neither service hands out per-track
 * mood or audio features any more (Spotify closed audio-features to new apps in November 2024; Apple never
 * had them), so a mood here is a statement about the genre, not about the recording. The table is
 * deterministic and small enough to read:
 *
 * - Energetic: music built for movement and volume (rock, punk, dance music, hip-hop, reggaeton).
 * - Chill: music built to sit in the background (ambient, lo-fi, bossa nova, jazz, classical).
 * - Happy: bright, major-key mainstream music (pop in all its regional forms, disco, funk, reggae, afrobeats).
 * - Melancholic: music whose tradition is sorrow and storytelling (blues, folk, soul, country, indie).
 * - Intense: heavy or dark music (metal, techno, soundtrack scores).
 *
 * A genre not in the table is matched by keyword (any "...pop" is Happy, any "...rock" Energetic, and so
 * on); what still matches nothing counts as Eclectic, so every track's share is placed and each year's
 * percentages still sum to 100.
 */

export const MOODS = ['Energetic', 'Chill', 'Happy', 'Melancholic', 'Intense', 'Eclectic'] as const;
export type Mood = (typeof MOODS)[number];

const GENRE_MOODS: Record<string, Mood> = {
  // Catalog genres (lower case, as Spotify and the sandbox write them).
  pop: 'Happy',
  'k-pop': 'Happy',
  'j-pop': 'Happy',
  'c-pop': 'Happy',
  'russian pop': 'Happy',
  'greek pop': 'Happy',
  'arabic pop': 'Happy',
  disco: 'Happy',
  funk: 'Happy',
  reggae: 'Happy',
  afrobeats: 'Happy',
  latin: 'Happy',
  mizrahi: 'Happy',
  rock: 'Energetic',
  punk: 'Energetic',
  'hip-hop': 'Energetic',
  electronic: 'Energetic',
  house: 'Energetic',
  reggaeton: 'Energetic',
  dance: 'Energetic',
  jazz: 'Chill',
  classical: 'Chill',
  ambient: 'Chill',
  'lo-fi': 'Chill',
  'bossa nova': 'Chill',
  'r&b': 'Chill',
  soul: 'Melancholic',
  blues: 'Melancholic',
  folk: 'Melancholic',
  country: 'Melancholic',
  indie: 'Melancholic',
  metal: 'Intense',
  techno: 'Intense',
  soundtrack: 'Intense',
  // Apple Music genre names that differ from the above.
  alternative: 'Melancholic',
  'hip-hop/rap': 'Energetic',
  rap: 'Energetic',
  'r&b/soul': 'Chill',
  'singer/songwriter': 'Melancholic',
  'hard rock': 'Energetic',
  'new age': 'Chill',
  easy: 'Chill',
  'easy listening': 'Chill',
  electronica: 'Energetic',
  worldwide: 'Happy',
  'christian & gospel': 'Happy',
  children: 'Happy',
  "children's music": 'Happy',
};

const KEYWORDS: [RegExp, Mood][] = [
  [/metal|core\b|industrial|techno|score/, 'Intense'],
  [/rock|punk|rap|hip.?hop|dance|house|edm|trap|drill|reggaeton|dubstep|drum/, 'Energetic'],
  [/ambient|lo.?fi|chill|jazz|classical|lounge|piano|sleep|instrumental/, 'Chill'],
  [/blues|folk|soul|country|indie|emo|acoustic|songwriter/, 'Melancholic'],
  [/pop|disco|funk|reggae|latin|afro|gospel|salsa|samba/, 'Happy'],
];

export function moodForGenre(genre: string): Mood {
  const key = genre.trim().toLowerCase();
  const exact = GENRE_MOODS[key];
  if (exact) return exact;
  for (const [pattern, mood] of KEYWORDS) if (pattern.test(key)) return mood;
  return 'Eclectic';
}
