import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createDeveloperTokenSigner,
  generateSandboxAppleKeys,
  MAX_DEVELOPER_TOKEN_LIFETIME_S,
  type SandboxAppleKeys,
} from './developer-token';

let keys: SandboxAppleKeys;
beforeAll(async () => {
  keys = await generateSandboxAppleKeys();
});

describe('developer token signer', () => {
  it('signs ES256 with the key id and team id Apple expects, for 30 days by default', async () => {
    const token = await createDeveloperTokenSigner(keys).getToken();
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: keys.keyId });
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(keys.teamId);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(30 * 24 * 3600);
  });

  it('names the web origins allowed to use it when given (MusicKit runs on PUBLIC_URL)', async () => {
    const token = await createDeveloperTokenSigner({
      ...keys,
      origins: ['https://crossfade.example'],
    }).getToken();
    expect(decodeJwt(token).origin).toEqual(['https://crossfade.example']);
    expect(decodeJwt(await createDeveloperTokenSigner(keys).getToken()).origin).toBeUndefined();
  });

  it('never asks for a lifetime above Apple’s 15,777,000 s ceiling', async () => {
    const token = await createDeveloperTokenSigner({ ...keys, lifetimeSeconds: 365 * 24 * 3600 }).getToken();
    const claims = decodeJwt(token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(MAX_DEVELOPER_TOKEN_LIFETIME_S);
  });

  it('reuses its token until a day before expiry, then signs a new one', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const signer = createDeveloperTokenSigner({ ...keys, lifetimeSeconds: 10 * 24 * 3600, now: () => clock });
    const first = await signer.getToken();
    clock += 8 * 24 * 3600 * 1000;
    expect(await signer.getToken()).toBe(first);
    clock += 24 * 3600 * 1000 + 1000;
    const renewed = await signer.getToken();
    expect(renewed).not.toBe(first);
    expect(decodeJwt(renewed).iat).toBe(Math.floor(clock / 1000));
  });

  it('makes distinct 10-character team and key ids with an exportable public key', async () => {
    const other = await generateSandboxAppleKeys();
    expect(keys.teamId).toMatch(/^[A-Z0-9]{10}$/);
    expect(keys.keyId).toMatch(/^[A-Z0-9]{10}$/);
    expect(other.keyId).not.toBe(keys.keyId);
    expect(keys.publicKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(keys.publicKeyJwk.d).toBeUndefined();
    expect(keys.privateKeyPem).toContain('BEGIN PRIVATE KEY');
  });
});
