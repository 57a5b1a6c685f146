import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';

export interface SandboxAppleKeys {
  teamId: string;
  keyId: string;
  privateKeyPem: string;
  publicKeyJwk: JWK;
}

/** A fresh MusicKit-style key for sandbox mode; the app persists it and hands the public half to the emulator. */
export async function generateSandboxAppleKeys(): Promise<SandboxAppleKeys> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    teamId: randomId(10),
    keyId: randomId(10),
    privateKeyPem: await exportPKCS8(privateKey),
    publicKeyJwk: { ...(await exportJWK(publicKey)), alg: 'ES256' },
  };
}

function randomId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => alphabet[byte % 36]).join('');
}
