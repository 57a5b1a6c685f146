import { describe, expect, it } from 'vitest';
import { onboardingRouteFor as routeFromMessages } from './onboarding-routing';

type ChatMessage = { type: 'user' | 'assistant'; content: string };

const user = (content: string): ChatMessage => ({ type: 'user', content });
const assistant = (content: string): ChatMessage => ({ type: 'assistant', content });

describe('routeFromMessages (spec section 4)', () => {
  it.each([
    ['I want to transfer my music', '/transfer'],
    ['Move my PLAYLIST please', '/transfer'],
    ['I use Spotify', '/transfer'],
    ['switching to apple music', '/transfer'],
    ['I need a backup of everything', '/vault'],
    ['can I merge with someone?', '/merge'],
    ['my friend has great taste', '/merge'],
    ['I lost my favourite songs', '/recreate'],
    ['please recreate it', '/recreate'],
    ['can you recover them?', '/recreate'],
    ['hello there', '/transfer'],
  ] as const)('"%s" goes to %s', (content, route) => {
    expect(routeFromMessages([user(content)])).toBe(route);
  });

  it('defaults to /transfer for an empty conversation', () => {
    expect(routeFromMessages([])).toBe('/transfer');
  });

  it('lets the more specific intent win over the generic transfer words (issue 23)', () => {
    expect(routeFromMessages([user('I lost my playlist')])).toBe('/recreate');
    expect(routeFromMessages([user('merge my playlist with a friend')])).toBe('/merge');
    expect(routeFromMessages([user('a backup of my Spotify playlists')])).toBe('/vault');
    expect(routeFromMessages([user('recover my Apple Music playlist')])).toBe('/recreate');
    // Inside one message the spec's order settles it.
    expect(routeFromMessages([user('backup first, then merge with a friend')])).toBe('/vault');
    expect(routeFromMessages([user('merge what I lost')])).toBe('/merge');
  });

  it('ends a conversation about merging with a friend at /merge, whatever the follow-up asks', () => {
    expect(
      routeFromMessages([
        user('Merge with a friend'),
        assistant('Merging blends one of your lists with someone else’s.'),
        user('How are bridge tracks chosen for the playlist?'),
      ]),
    ).toBe('/merge');
  });

  it('sends keeping playlists in sync to /syncs', () => {
    expect(routeFromMessages([user('Can I keep my playlists in sync between Spotify and Apple?')])).toBe(
      '/syncs',
    );
    expect(routeFromMessages([user('keep my Apple playlist up to date with Spotify')])).toBe('/syncs');
  });

  it("reads only the person's last 3 messages", () => {
    const conversation = [
      user('I want to transfer'),
      assistant('Sure.'),
      user('actually, a backup'),
      assistant('Vault+ does that.'),
    ];
    expect(routeFromMessages(conversation)).toBe('/vault');
    // The newest specific words win over older ones.
    expect(routeFromMessages([user('a backup'), assistant('ok'), user('no, merge with a friend')])).toBe(
      '/merge',
    );
    expect(routeFromMessages([...conversation, assistant('Or merge with someone.')])).toBe('/vault');
    // The window is the person's last 3 messages: a follow-up keeps the topic before it in view.
    expect(routeFromMessages([user('backup'), assistant('ok'), user('hmm'), assistant('and?')])).toBe(
      '/vault',
    );
    expect(routeFromMessages([user('backup'), user('a'), assistant('ok'), user('b'), user('c')])).toBe(
      '/transfer',
    );
    expect(
      routeFromMessages([assistant('Did you lose something?'), user('I lost it'), assistant('ok')]),
    ).toBe('/recreate');
  });

  it('follows the person, never the assistant’s own replies', () => {
    // The assistant explains a backup or a recovery in words (playlist, Spotify) that mean /transfer.
    expect(
      routeFromMessages([
        user('I need a backup of everything'),
        assistant('Vault+ keeps a daily backup of every playlist on Spotify and Apple Music.'),
      ]),
    ).toBe('/vault');
    expect(
      routeFromMessages([
        user('I lost my favourite songs … can you recover them'),
        assistant('Paste the playlist link or a list of songs and I will rebuild it on Spotify.'),
      ]),
    ).toBe('/recreate');
    expect(routeFromMessages([assistant('Want to merge with a friend?')])).toBe('/transfer');
  });
});
