import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onboardingRouteFor } from '../../shared/onboarding-routing';
import { routeFromMessages } from '../ai/index';

type Message = { type: 'user' | 'assistant'; content: string };
const said = (...contents: string[]): Message[] =>
  contents.map((content, index) => ({ type: index % 2 === 0 ? 'assistant' : 'user', content }));

/** The web app's copy of the routing rule must send people where the server's assistant says. */
describe('the shared onboarding routing rule agrees with the AI module', () => {
  const table: [string, Message[], string][] = [
    ['nothing said', [], '/transfer'],
    ['no keyword', said('Hello there', 'Just looking around'), '/transfer'],
    ['transfer word', said('I want to move a playlist'), '/transfer'],
    ['Spotify in capitals', said('SPOTIFY please'), '/transfer'],
    ['backup', said('Can I make a backup?'), '/vault'],
    ['friend', said('Mixing with my friend'), '/merge'],
    ['merge', said('merge our tastes'), '/merge'],
    ['lost', said('I lost my mix'), '/recreate'],
    ['recover', said('help me recover songs'), '/recreate'],
    ['transfer beats the others', said('backup then transfer'), '/transfer'],
    ['backup beats merge', said('friend', 'backup'), '/vault'],
    ['only the last 3 count', said('playlist', 'one', 'two', 'I lost it'), '/recreate'],
    ['the 3rd from last counts', said('one', 'playlist', 'two', 'I lost it'), '/transfer'],
    ['substring on purpose', said('playlists'), '/transfer'],
    ['assistant words count too', [{ type: 'assistant', content: 'Your friend?' }], '/merge'],
  ];

  it.each(table)('%s', (_label, messages, expected) => {
    expect(onboardingRouteFor(messages)).toBe(expected);
    expect(routeFromMessages(messages)).toBe(expected);
  });

  it('agrees on generated conversations built from the keywords', () => {
    const word = fc.constantFrom(
      'transfer',
      'Playlist',
      'spotify',
      'APPLE',
      'backup',
      'merge',
      'friend',
      'lost',
      'recreate',
      'recover',
      'hello',
      'music',
      '',
    );
    const message = fc.record({
      type: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'),
      content: fc.array(word, { maxLength: 4 }).map((words) => words.join(' ')),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        expect(onboardingRouteFor(messages)).toBe(routeFromMessages(messages));
      }),
    );
  });
});
