import { afterEach, describe, expect, it } from 'vitest';
import { buildTestCatalog } from '../../sandbox/apple/test-catalog';
import { PermanentJobError } from '../jobs/job-runner';
import { type AppleSandboxHarness, startAppleSandbox } from '../testing/apple-sandbox';
import { findMarkedPlaylist, settledProgress } from './destination-progress';

/**
 * Against the Apple emulator with a write lag, over real HTTP through the real client: a resumed transfer
 * learns how far it got only once Apple's reads have caught up, and refuses a destination that holds
 * something else.
 */
const LAG_MS = 400;
let sandbox: AppleSandboxHarness | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const songIds = () =>
  buildTestCatalog()
    .tracks.filter((track) => track.apple?.storefronts.some((code) => code.toLowerCase() === 'us'))
    .map((track) => track.apple?.id ?? '')
    .slice(0, 6);

describe('settledProgress', () => {
  it('waits until the lagging reads show the tracks added, instead of trusting the first read', async () => {
    sandbox = await startAppleSandbox({ writeLagMs: LAG_MS });
    const apple = sandbox.provider({ writeSettleMs: LAG_MS * 2 });
    const uris = songIds();
    const created = await apple.createPlaylist('Lagging transfer', 'crossfade-transfer:abcd1234');
    await apple.addTracks(created.id, uris.slice(0, 4));

    // Straight after the writes, reads show nothing yet (the playlist itself is not visible).
    await expect(apple.getPlaylist(created.id)).rejects.toMatchObject({ kind: 'not_found' });
    // The checkpoint said 0, yet 4 were applied: the settled read says 4.
    expect(await settledProgress(apple, created.id, uris, 0)).toBe(4);
  });

  it('stops for good when the destination is not the start of what the transfer adds', async () => {
    sandbox = await startAppleSandbox();
    const apple = sandbox.provider({ writeSettleMs: 0 });
    const uris = songIds();
    const created = await apple.createPlaylist('Changed elsewhere');
    await apple.addTracks(created.id, [uris[0] ?? '', uris[2] ?? '']);
    const failure = await settledProgress(apple, created.id, uris, 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PermanentJobError);
    expect((failure as Error).message).toContain('differs from this transfer at track 2');
  });
});

describe('findMarkedPlaylist', () => {
  it('finds a playlist whose creation reads do not show yet, by waiting out the write delay', async () => {
    sandbox = await startAppleSandbox({ writeLagMs: LAG_MS });
    const apple = sandbox.provider({ writeSettleMs: LAG_MS * 2 });
    const created = await apple.createPlaylist('Half created', 'Moved (crossfade-transfer:feedbeef)');
    expect((await apple.listPlaylists()).some((playlist) => playlist.id === created.id)).toBe(false);
    expect((await findMarkedPlaylist(apple, 'crossfade-transfer:feedbeef'))?.id).toBe(created.id);
    expect(await findMarkedPlaylist(apple, 'crossfade-transfer:00000000')).toBeUndefined();
  });
});
