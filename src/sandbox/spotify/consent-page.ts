import { SANDBOX_COUNTRIES } from '../accounts';
import { escapeHtml } from '../web-session';
import { DEMO_USER, UNREGISTERED_USER } from './state';

/** The person's own account as the consent page offers it: new (a country to pick) or as it is. */
export interface OwnAccountOffer {
  displayName: string;
  country: string;
  /** False on the first consent: the account is made then, in the country picked. */
  exists: boolean;
}

/** The accounts service's consent screen: pick an account, then Agree or Cancel. */
export function consentPage(
  params: Record<string, string>,
  scopes: string[],
  action: string,
  own: OwnAccountOffer | null,
): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const scopeItems = scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('');
  const country = !own
    ? ''
    : own.exists
      ? `<p class="note">Your account is in ${escapeHtml(own.country)}.</p>`
      : `<label>Country of your account <select name="country">${SANDBOX_COUNTRIES.map((code) => `<option${code === own.country ? ' selected' : ''}>${code}</option>`).join('')}</select></label>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Connect to Crossfade – Spotify sandbox</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #121212; color: #fff; display: grid; place-items: center; min-height: 100vh; margin: 0; }
    main { background: #1e1e1e; padding: 2rem; border-radius: 12px; max-width: 28rem; }
    fieldset { border: 1px solid #555; border-radius: 8px; margin: 1rem 0; }
    label { display: block; padding: .4rem 0; }
    .actions { display: flex; gap: 1rem; margin-top: 1.5rem; }
    button { font-size: 1rem; padding: .7rem 1.6rem; border-radius: 999px; border: 0; cursor: pointer; }
    button[value="agree"] { background: #1ed760; color: #000; font-weight: 700; }
    button[value="cancel"] { background: transparent; color: #fff; border: 1px solid #aaa; }
    button:focus-visible { outline: 3px solid #fff; outline-offset: 2px; }
    .note { color: #b3b3b3; font-size: .9rem; }
  </style>
</head>
<body>
  <main>
    <h1>Spotify sandbox</h1>
    <p>Crossfade wants to connect to your account. It will be able to:</p>
    <ul>${scopeItems}</ul>
    <form method="post" action="${escapeHtml(action)}">
      ${hidden}
      <fieldset>
        <legend>Sign in as</legend>
        ${
          own
            ? `<label><input type="radio" name="account" value="own" checked> ${escapeHtml(own.displayName)} (your own sandbox account)</label>
        ${country}
        <label><input type="radio" name="account" value="${DEMO_USER.id}"> Second demo listener: ${escapeHtml(DEMO_USER.displayName)}, shared by everyone</label>`
            : `<label><input type="radio" name="account" value="${DEMO_USER.id}" checked> ${escapeHtml(DEMO_USER.displayName)}</label>`
        }
        <label><input type="radio" name="account" value="${UNREGISTERED_USER.id}"> ${escapeHtml(UNREGISTERED_USER.displayName)}</label>
      </fieldset>
      <p class="note">Your own sandbox account has a demo library nobody else sees. The last account is not on this app's development-mode user list, so Spotify refuses its requests.</p>
      <div class="actions">
        <button type="submit" name="decision" value="agree">Agree</button>
        <button type="submit" name="decision" value="cancel">Cancel</button>
      </div>
    </form>
  </main>
</body>
</html>`;
}
