import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { loadCatalogFile } from '../sandbox/catalog/load-file';
import { createSandbox } from '../sandbox/index';
import { DEMO_USER } from '../sandbox/spotify/state';
import { MemoryMatchCache } from '../server/matching/cache';
import { MAX_CANDIDATES, matchTracks } from '../server/matching/pipeline';
import { AppleMusicProvider } from '../server/providers/apple/client';
import {
  createDeveloperTokenSigner,
  generateSandboxAppleKeys,
} from '../server/providers/apple/developer-token';
import { SpotifyProvider } from '../server/providers/spotify/client';
import { createSpotifyAuthorization, exchangeSpotifyCode } from '../server/providers/spotify/oauth';
import type { MusicProvider, NormalizedTrack } from '../server/providers/types';
import { CommandError } from './plan-command';

/**
 * `match-files --to apple|spotify --source SOURCE.jsonl --catalog CATALOG.jsonl > RESULTS.jsonl`
 *
 * Loads the catalog into that service's emulator (rate limit off), then runs the pipeline a transfer
 * uses: the real client over HTTP, the emulator's ISRC lookup and search, and the scorer. One output line
 * per source track, in input order; a summary on stderr.
 */
export const MATCH_FILES_USAGE =
  'match-files --to apple|spotify --source SOURCE.jsonl --catalog CATALOG.jsonl > RESULTS.jsonl';

const sourceLineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string().default(''),
  durationMs: z.number().nonnegative().default(0),
  isrc: z.string().nullish(),
  explicit: z.boolean().nullish(),
});

function parseArgs(args: string[]) {
  const options = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index];
    const value = args[index + 1];
    if (!flag?.startsWith('--') || value === undefined) throw new CommandError(`Usage: ${MATCH_FILES_USAGE}`);
    options.set(flag.slice(2), value);
  }
  const to = options.get('to');
  const source = options.get('source');
  const catalog = options.get('catalog');
  if ((to !== 'apple' && to !== 'spotify') || !source || !catalog)
    throw new CommandError(`Usage: ${MATCH_FILES_USAGE}`);
  return { to, source, catalog } as const;
}

async function readSources(path: string): Promise<NormalizedTrack[]> {
  const tracks: NormalizedTrack[] = [];
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new CommandError(`${path} line ${number}: not valid JSON`);
      }
      const parsed = sourceLineSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CommandError(
          `${path} line ${number}: ${issue?.path.join('.') || 'line'} ${issue?.message ?? 'is invalid'}`,
        );
      }
      const line_ = parsed.data;
      tracks.push({
        id: line_.id,
        uri: line_.id,
        name: line_.name,
        artists: line_.artists,
        album: line_.album,
        durationMs: line_.durationMs,
        ...(line_.isrc ? { isrc: line_.isrc } : {}),
        ...(typeof line_.explicit === 'boolean' ? { explicit: line_.explicit } : {}),
      });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandError(`${path}: no such file`);
    throw error;
  }
  return tracks;
}

/** A Spotify access token for the sandbox's demo user, through the emulator's own PKCE flow. */
async function sandboxSpotifyToken(origin: string): Promise<string> {
  const accountsBaseUrl = `${origin}/sandbox/spotify/accounts`;
  const redirectUri = `${origin}/callback`;
  const request = await createSpotifyAuthorization({
    accountsBaseUrl,
    clientId: 'crossfade-sandbox',
    redirectUri,
  });
  const authorize = new URL(request.url);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('account', DEMO_USER.id);
  form.set('decision', 'agree');
  const consent = await fetch(`${accountsBaseUrl}/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const location = consent.headers.get('location');
  if (!location) throw new Error('the Spotify emulator did not hand out a code');
  const tokens = await exchangeSpotifyCode({
    accountsBaseUrl,
    clientId: 'crossfade-sandbox',
    redirectUri,
    callback: new URL(location),
    expectedState: request.state,
    codeVerifier: request.codeVerifier,
  });
  return tokens.accessToken;
}

export async function runMatchFiles(args: string[]): Promise<number> {
  const options = parseArgs(args);
  const started = performance.now();
  const sources = await readSources(options.source);
  const catalog = loadCatalogFile(options.catalog, { service: options.to });
  const keys = await generateSandboxAppleKeys();
  // The sandbox registers the redirect URI of its Spotify client, which names the port: listen first.
  let sandbox: ReturnType<typeof createSandbox> | undefined;
  const server = serve({
    fetch: (request, env) => sandbox?.fetch(request, env) ?? new Response(null, { status: 503 }),
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox = createSandbox({
    catalog,
    rateLimit: null,
    appleDeveloperKeys: [{ teamId: keys.teamId, keyId: keys.keyId, publicKey: keys.publicKeyJwk }],
    accountSecret: randomBytes(32),
    spotifyRedirectUris: [`${origin}/callback`],
  });

  try {
    let provider: MusicProvider & { http: { callCounts: Map<string, number> } };
    if (options.to === 'apple') {
      provider = new AppleMusicProvider({
        apiBaseUrl: `${origin}/sandbox/apple/v1`,
        developerToken: createDeveloperTokenSigner(keys),
        storefront: 'us',
      });
    } else {
      const token = await sandboxSpotifyToken(origin);
      provider = new SpotifyProvider({
        apiBaseUrl: `${origin}/sandbox/spotify/api/v1`,
        mode: 'development',
        market: 'US',
        tokens: { getAccessToken: async () => token, refresh: async () => token },
      });
    }
    const matches = await matchTracks(sources, provider, {
      region: 'us',
      cache: new MemoryMatchCache(),
      concurrency: 8,
    });

    let matched = 0;
    const out: string[] = [];
    for (const match of matches) {
      // What a transfer adds without anyone's review: the accept band only (decision 0006). Review-band
      // proposals wait for a person, so they are null here, with their confidence and status kept.
      const destinationId = match.status === 'accepted' ? (match.best?.track.id ?? null) : null;
      if (destinationId) matched++;
      out.push(
        JSON.stringify({
          sourceId: match.sourceId,
          destinationId,
          confidence: Math.round(match.confidence),
          status: match.status,
          // What a review or unmatched row offers the person, best first, so the band can be measured.
          candidates: match.candidates.slice(0, MAX_CANDIDATES).map((candidate) => ({
            destinationId: candidate.track.id,
            confidence: Math.round(candidate.confidence),
          })),
        }),
      );
      if (out.length >= 1000) process.stdout.write(`${out.splice(0).join('\n')}\n`);
    }
    if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);

    const seconds = (performance.now() - started) / 1000;
    const calls = [...provider.http.callCounts]
      .map(([endpoint, count]) => `${endpoint} ×${count}`)
      .join(', ');
    process.stderr.write(
      `match-files: ${sources.length} sources against ${catalog.tracks.length} catalog tracks on ${options.to}: ` +
        `${matched} matched, ${sources.length - matched} unmatched in ${seconds.toFixed(1)} s\n` +
        `match-files: API calls: ${calls || 'none'}\n`,
    );
    return 0;
  } finally {
    server.close();
  }
}
