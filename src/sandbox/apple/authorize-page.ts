import { escapeHtml } from '../web-session';
import { DEMO_USER_NAME } from './library';

/** The person's own account as the page offers it, with the signed claim that names it. */
export interface AppleAccountOffer {
  claim: string;
  displayName: string;
  /** Lower-case storefront. */
  storefront: string;
}

/**
 * The sandbox's stand-in for MusicKit's sign-in and consent sheet (Apple's musickit.js may not be re-hosted).
 * A plain form: keyboard and screen-reader friendly, no script needed.
 */
export function authorizePage(input: {
  developerToken: string;
  redirectUri: string;
  /** Set instead of `redirectUri` when the answer is a message to the opener (MusicKit's popup). */
  messageOrigin: string;
  state: string;
  account: AppleAccountOffer | null;
}): string {
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const appHost = escapeHtml(new URL(input.redirectUri || input.messageOrigin).host);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow access to Apple Music? (Sandbox)</title>
<style>
  body { font-family: -apple-system, system-ui, sans-serif; background: #f5f5f7; color: #1d1d1f; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border-radius: 1rem; padding: 2rem; box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  p, li { line-height: 1.5; }
  .account { color: #424245; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { font: inherit; font-size: 1rem; padding: 0.65rem 1.4rem; border-radius: 0.6rem; border: 1px solid #c7c7cc; background: #fff; color: #1d1d1f; cursor: pointer; }
  button.allow { background: #c4153a; border-color: #c4153a; color: #fff; }
  button:focus-visible { outline: 3px solid #0060df; outline-offset: 2px; }
  .note { font-size: 0.85rem; color: #515154; margin-top: 1.5rem; }
</style>
</head>
<body>
<main>
  <h1>Allow &ldquo;${appHost}&rdquo; to access Apple Music?</h1>
  ${
    input.account
      ? `<fieldset class="account"><legend>Sign in as</legend>
    <label><input type="radio" name="account" value="own" form="consent" checked> <strong>${escapeHtml(input.account.displayName)}</strong> (your own sandbox Apple Music account, storefront ${escapeHtml(input.account.storefront)})</label>
    <label><input type="radio" name="account" value="shared" form="consent"> Second demo listener: ${escapeHtml(DEMO_USER_NAME)}, shared by everyone</label>
  </fieldset>`
      : `<p class="account">Signed in as <strong>${escapeHtml(DEMO_USER_NAME)}</strong> (sandbox Apple Music account).</p>`
  }
  <p>This app will be able to:</p>
  <ul>
    <li>See your library playlists and the songs in them</li>
    <li>Create playlists and add songs to them</li>
  </ul>
  <form method="post" action="authorize" id="consent">
    ${hidden('developer_token', input.developerToken)}
    ${input.account ? hidden('sandbox_account', input.account.claim) : ''}
    ${input.redirectUri ? hidden('redirect_uri', input.redirectUri) : hidden('origin', input.messageOrigin)}
    ${hidden('state', input.state)}
    <div class="actions">
      <button type="submit" name="decision" value="deny">Don&rsquo;t Allow</button>
      <button type="submit" name="decision" value="allow" class="allow">Allow</button>
    </div>
  </form>
  <p class="note">This is the Crossfade sandbox. No real Apple account is used.</p>
</main>
</body>
</html>`;
}

export function authorizeErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Apple Music sign-in failed (Sandbox)</title></head>
<body><main><h1>Apple Music sign-in failed</h1><p role="alert">${escapeHtml(message)}</p></main></body></html>`;
}

/**
 * MusicKit's popup answer: the result goes to the window that opened the sign-in, at the app's origin
 * only (checked against the developer token), and the popup closes.
 */
export function messagePage(origin: string, result: Record<string, string>): string {
  const payload = JSON.stringify(result).replace(/</g, '\\u003c');
  const target = JSON.stringify(origin).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Apple Music sign-in (Sandbox)</title></head>
<body><main><p>You can close this window.</p></main>
<script>if (window.opener) window.opener.postMessage(${payload}, ${target}); window.close();</script>
</body></html>`;
}
