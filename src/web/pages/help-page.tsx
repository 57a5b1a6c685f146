import { Link } from 'wouter';
import { FREE_TRANSFERS_PER_PERIOD, PLAN_PERIOD_DAYS } from '../../shared/api/plans';
import { ACCEPT_CONFIDENCE, REVIEW_CONFIDENCE } from '../../shared/api/transfer';
import { BACKUPS_KEPT_PER_SERVICE } from '../../shared/api/vault';
import { Page } from '../components/layout/page';
import { Article, type ArticleSection } from '../features/account';
import { paths } from '../lib/paths';

const sections: ArticleSection[] = [
  {
    id: 'getting-started',
    title: 'How do I move a playlist?',
    body: (
      <ol>
        <li>
          Choose where the playlist is and where it should go, and connect both services (
          <Link href={paths.transfer}>Transfer</Link>).
        </li>
        <li>Pick the playlist.</li>
        <li>Crossfade matches every track; review the matches and fix any you disagree with.</li>
        <li>
          Transfer. Crossfade creates a new playlist on the other service and gives you a CSV of what happened
          to every track.
        </li>
      </ol>
    ),
  },
  {
    id: 'matching',
    title: 'How does matching work?',
    body: (
      <>
        <p>
          <strong>ISRC first.</strong> Most recordings carry an ISRC, an international code for one specific
          recording. When the source track has one and the other service has a track with the same code, that
          is almost always the same recording.
        </p>
        <p>
          <strong>Then metadata, with version checks.</strong> Without an ISRC match, Crossfade searches the
          other catalog by title, artists and album, and compares every result: title and artist similarity,
          album, duration (a few seconds apart at most), and the version. A live recording, remix, acoustic,
          instrumental, karaoke, sped-up or radio edit, or a clean version of an explicit song, is treated as
          a different song from the original: Crossfade would rather leave a track for you to decide than
          quietly add the wrong version.
        </p>
        <p>Each match lists the reasons behind it, for example "ISRC match" or "duration differs by 4 s".</p>
      </>
    ),
  },
  {
    id: 'confidence',
    title: 'What does the confidence mean?',
    body: (
      <>
        <ul>
          <li>
            <strong>{ACCEPT_CONFIDENCE}% and above</strong>: accepted. The same recording, found by ISRC or by
            metadata that agrees on everything.
          </li>
          <li>
            <strong>
              {REVIEW_CONFIDENCE}–{ACCEPT_CONFIDENCE - 1}%
            </strong>
            : needs review. Probably right, but something differs (album, a few seconds of duration,
            spelling). Have a look before you transfer.
          </li>
          <li>
            <strong>Below {REVIEW_CONFIDENCE}%</strong>: not matched. Nothing close enough was found; the
            track is left out unless you pick one yourself.
          </li>
        </ul>
        <p>
          The playlist's overall confidence is the average of its matched tracks: Excellent from 90%, Good
          from 70%, Fair from 50%, Poor from 30%.
        </p>
      </>
    ),
  },
  {
    id: 'not-found',
    title: 'Why was a track not found?',
    body: (
      <ul>
        <li>The other service does not have the song at all (common for small labels and old uploads).</li>
        <li>
          It exists, but not in your country or storefront. The <Link href={paths.geoLock}>Geo-Lock</Link>{' '}
          page can suggest alternatives.
        </li>
        <li>Only another version exists (live, remix, remaster), which Crossfade will not add on its own.</li>
        <li>
          The entry was never a catalog song: a local file, a podcast episode, or a track the service marks as
          unavailable. These are listed as skipped.
        </li>
        <li>The titles or artists are written too differently. Search by hand (see below).</li>
      </ul>
    ),
  },
  {
    id: 'fix-a-match',
    title: 'How do I fix a match by hand?',
    body: (
      <p>
        On the Match Songs step, open a track. You can pick one of the other candidates ("Use this"), search
        the other service yourself and choose a result, or Skip the track so it is not added. Undo puts the
        engine's choice back. Your choices are remembered for the transfer and appear in its CSV.
      </p>
    ),
  },
  {
    id: 'apple-playlists',
    title: 'Why can’t Crossfade change an Apple Music playlist after it is created?',
    body: (
      <p>
        Apple Music's API lets apps create a playlist and add songs to it, and nothing more: no renaming,
        reordering or removing songs. So Crossfade gets everything right before it writes, which is why you
        review first. If you want to change the playlist afterwards, do it in the Music app; if you want to
        start over, delete it there and transfer again.
      </p>
    ),
  },
  {
    id: 'spotify-development-mode',
    title: 'Spotify says I am not registered, or only some playlists appear',
    body: (
      <>
        <p>
          A self-hosted Crossfade uses its operator's own Spotify app. Since 2026, Spotify apps in{' '}
          <strong>development mode</strong> can be used by at most <strong>5 people</strong>, whom the app
          owner (who needs Spotify Premium) adds under User Management in the Spotify Developer Dashboard.
          Anyone else gets "User not registered in the Developer Dashboard". Development-mode apps may also
          read only playlists you own or collaborate on, not ones you follow.
        </p>
        <p>
          <strong>The way around it: import a CSV.</strong> Export the playlist with a tool such as Exportify
          (or from Spotify's account data download) and use "Import a CSV" on the Select Playlist step.
          Crossfade reads the ISRCs in the file, so the matches are as good as from Spotify directly. A pasted
          list of "Artist – Title" lines works too.
        </p>
      </>
    ),
  },
  {
    id: 'reconnect',
    title: 'Why do I have to connect Spotify again?',
    body: (
      <p>
        Spotify's access for apps ends six months after you granted it, however often it was used. Connect
        again in <Link href={paths.account}>My Account</Link>; nothing else is lost.
      </p>
    ),
  },
  {
    id: 'plans',
    title: 'Plan limits and when they reset',
    body: (
      <>
        <p>
          The Free plan includes {FREE_TRANSFERS_PER_PERIOD} transfer in any {PLAN_PERIOD_DAYS} days. Each
          transfer counts for {PLAN_PERIOD_DAYS} days from when you started it, so the limit resets{' '}
          {PLAN_PERIOD_DAYS} days after your oldest counted transfer. Failed transfers do not count. My
          Account shows how many you have used and the date the limit resets.
        </p>
        <p>
          Pro makes transfers unlimited. Vault+ adds daily backups, ZIP export and cloud save. See{' '}
          <Link href={paths.pricing}>Pricing</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'backups',
    title: 'How do Vault+ backups work?',
    body: (
      <p>
        Once a day Crossfade saves every playlist on each connected service with all its tracks, and you can
        back up at any time with "Back up now" on <Link href={paths.vault}>Vault+</Link>. The{' '}
        {BACKUPS_KEPT_PER_SERVICE} newest backups per service are kept. To restore, open a backup, pick a
        playlist and choose Spotify or Apple Music: Crossfade matches it like any transfer, so you review it
        before a new playlist is created.
      </p>
    ),
  },
  {
    id: 'data',
    title: 'How do I download or delete my data?',
    body: (
      <p>
        In <Link href={paths.account}>My Account</Link>: "Download my data" gives you a JSON file of
        everything stored about you, and "Delete my account" removes all of it. The{' '}
        <Link href={paths.privacy}>Privacy Policy</Link> lists what that includes.
      </p>
    ),
  },
];

export default function HelpPage() {
  return (
    <Page title="Help" description="Answers to the questions people ask most about Crossfade.">
      <Article sections={sections} />
    </Page>
  );
}
