import { type SandboxClaimService, sandboxAccountKey, signAccountClaim } from '../../sandbox/accounts';

/**
 * Sandbox mode (decision 0022): each person's own emulator account is named by an HMAC of their user id
 * under the sandbox secret, and the consent URL carries it in a claim signed with the same secret, bound
 * to this sign-in (client, redirect address, state, and for Spotify the PKCE challenge) and good for ten
 * minutes. The emulators never learn the user id, and no one can name another person's account.
 */
export class SandboxAccountClaims {
  constructor(private readonly secret: Uint8Array) {}

  /** The account key of a user: stable, unguessable without the secret. */
  accountOf(userId: string): string {
    return sandboxAccountKey(this.secret, userId);
  }

  /**
   * Adds the claim to a consent URL (`sandbox_account`). `scenario` (tests only, SANDBOX_TEST_SCENARIOS)
   * seeds a new account's library with a fixed one; the account stays the person's own.
   */
  async addTo(
    authorizeUrl: URL,
    userId: string,
    service: SandboxClaimService,
    scenario?: string,
  ): Promise<URL> {
    const params = authorizeUrl.searchParams;
    const claim = await signAccountClaim(this.secret, {
      account: this.accountOf(userId),
      scenario,
      service,
      // Apple's sign-in page has no client or PKCE; the others' claims are bound to both.
      clientId: service === 'apple' ? undefined : (params.get('client_id') ?? undefined),
      redirectUri: params.get('redirect_uri') ?? '',
      state: params.get('state') ?? '',
      codeChallenge: service === 'apple' ? undefined : (params.get('code_challenge') ?? undefined),
    });
    params.set('sandbox_account', claim);
    return authorizeUrl;
  }
}
