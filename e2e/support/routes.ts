/** Every route the app serves, with the h1 each one shows (spec section 2). */
export const PUBLIC_ROUTES: { path: string; heading: string | RegExp }[] = [
  { path: '/', heading: /Transfer your playlists between Spotify and Apple Music/ },
  { path: '/auth', heading: 'Welcome to Crossfade' },
  { path: '/service-selection', heading: 'Choose your services' },
  { path: '/transfer', heading: 'Transfer Playlists' },
  { path: '/playlists', heading: 'Select Playlist' },
  { path: '/matches', heading: 'Match Songs' },
  // With nothing transferred and no playlist chosen, /complete goes back to step 1 (spec section 2).
  { path: '/complete', heading: 'Transfer Playlists' },
  { path: '/link', heading: 'Sniper Link' },
  { path: '/merge', heading: 'Friend Merge' },
  { path: '/geo-lock', heading: 'Geo-Lock Bypass' },
  { path: '/onboarding', heading: 'Welcome' },
  { path: '/visualizations', heading: 'Features' },
  { path: '/privacy', heading: 'Privacy Policy' },
  { path: '/terms', heading: 'Terms of Service' },
  { path: '/help', heading: 'Help' },
  { path: '/pricing', heading: 'Pricing' },
  { path: '/vault', heading: 'Vault+' },
  { path: '/recreate', heading: 'Recreate a Playlist' },
  { path: '/no-such-page', heading: '404 Page Not Found' },
];

/** Routes that need a signed-in user to show their own content. */
export const SIGNED_IN_ROUTES: { path: string; heading: string }[] = [
  { path: '/account', heading: 'My Account' },
];
