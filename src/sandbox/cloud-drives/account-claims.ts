import { CLAIM_REFUSALS, UsedClaims, type VerifiedAccountClaim, verifyAccountClaim } from '../accounts';

/**
 * The cloud-drive emulators' half of decision 0022: their consent pages sign a person in to the sandbox
 * account the app's signed claim names (`sandbox_account`), bound to the client, the redirect address,
 * the state and the PKCE challenge of this sign-in, and good once. An edited, guessed, expired or reused
 * claim is refused with a page saying why, as on the music emulators' consent pages.
 */
export class DriveAccountClaims {
  private readonly used: UsedClaims;

  constructor(
    private readonly secret: Uint8Array,
    private readonly service: 'google-drive' | 'dropbox',
    private readonly now: () => number = Date.now,
  ) {
    this.used = new UsedClaims(now);
  }

  /** Checks the claim of an authorize request; on a consent (`consume`), also that it was not used. */
  async check(
    params: {
      sandbox_account: string;
      client_id: string;
      redirect_uri: string;
      state: string;
      code_challenge: string;
    },
    consume: boolean,
  ): Promise<{ ok: true; claim: VerifiedAccountClaim } | { ok: false; message: string }> {
    const checked = await verifyAccountClaim(
      this.secret,
      params.sandbox_account,
      {
        service: this.service,
        clientId: params.client_id,
        redirectUri: params.redirect_uri,
        state: params.state,
        codeChallenge: params.code_challenge || undefined,
      },
      this.now,
    );
    if (!checked.ok) return { ok: false, message: CLAIM_REFUSALS[checked.reason] };
    if (consume && !this.used.take(checked.claim)) return { ok: false, message: CLAIM_REFUSALS.used };
    return checked;
  }
}
