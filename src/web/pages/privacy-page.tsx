import { Link } from 'wouter';
import { BACKUPS_KEPT_PER_SERVICE } from '../../shared/api/vault';
import { Page } from '../components/layout/page';
import { Article, type ArticleSection } from '../features/account';
import { paths } from '../lib/paths';

const sections: ArticleSection[] = [
  {
    id: 'summary',
    title: 'In short',
    body: (
      <>
        <p>
          Crossfade keeps what it needs to move your playlists and to show you what happened: your account,
          the access you grant to Spotify and Apple Music, and the playlists, matches and transfers you make.
          It does not sell data, show advertising or send your data to analytics companies. You can download
          all of it, or delete all of it, from <Link href={paths.account}>My Account</Link> at any time.
        </p>
        <p>
          Crossfade is software that whoever runs this server operates. That operator is responsible for this
          server and for the data on it; this policy describes what the software stores and does.
        </p>
      </>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What Crossfade stores',
    body: (
      <>
        <h3>Your account</h3>
        <p>
          Your username, e-mail address, plan, whether your profile is public, and when you signed up. Your
          password is stored only as an Argon2id hash: nobody, including the operator, can read it back.
          Sign-in sessions are kept as hashes of the session cookie. Failed sign-ins are recorded briefly
          (username and network address) to slow down password guessing.
        </p>
        <h3>Connections to Spotify and Apple Music</h3>
        <p>
          When you connect a service, Crossfade stores the access it was given (Spotify access and refresh
          tokens, or the Apple Music user token), encrypted with AES-256-GCM, plus your account id and display
          name on that service and your country or storefront (needed to know which songs you can play).
        </p>
        <h3>Transfers and matches</h3>
        <p>
          For each transfer: the playlist's name, the services, the counts of matched and missing tracks, the
          link to the new playlist, and each track's match with its confidence, the reasons, and any choice
          you made by hand.
        </p>
        <h3>Imports, exports, backups, merges and links</h3>
        <ul>
          <li>Playlists you import from a CSV file or a pasted list.</li>
          <li>Exports you save to Crossfade storage (Vault+).</li>
          <li>Backups of your playlists and their tracks (Vault+).</li>
          <li>
            Friend merges: the invitation (your friend's e-mail address and the playlists involved) and the
            merged playlist. The invitation e-mail itself is kept in the server's outbox.
          </li>
          <li>
            Sniper links you create, how many times they were viewed (visitors are counted by a salted hash,
            not by who they are), and the e-mail addresses of people who signed up through them.
          </li>
        </ul>
        <h3>First-party analytics</h3>
        <p>
          The app records product events such as "transfer started" or "export used" with the page they
          happened on. They go only to this server, never to a third party. Events recorded while you are
          signed in are linked to your account; events from signed-out visits are tied only to a random
          browser key.
        </p>
        <h3>Shared catalog cache</h3>
        <p>
          Results of catalog searches (which song has which ISRC, for example) are cached and shared between
          everyone. They describe songs, not people, and hold nothing about you.
        </p>
      </>
    ),
  },
  {
    id: 'provider-data',
    title: 'Which Spotify and Apple Music data is used, and why',
    body: (
      <>
        <p>
          Crossfade asks a service only for what a transfer needs: your profile id and name (to show which
          account is connected), your country or storefront (availability), your playlists and their tracks
          (the source of a transfer or backup), catalog search and ISRC lookups (matching), and permission to
          create playlists and add tracks (the destination). It does not read your listening history, your
          followers or your payment details.
        </p>
        <p>
          Data from a service is used only to provide Crossfade's features to you. It is not combined into
          profiles for advertising and is not shared with anyone else. The services' own privacy policies
          apply to what you do on Spotify and Apple Music.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long data is kept',
    body: (
      <ul>
        <li>Your account and everything linked to it: until you delete your account.</li>
        <li>Sign-in sessions: until you sign out or they expire (30 days by default).</li>
        <li>
          Service access: until you disconnect the service or delete your account. Spotify access also stops
          working six months after you granted it; Crossfade then asks you to connect again.
        </li>
        <li>
          Backups: the {BACKUPS_KEPT_PER_SERVICE} most recent per service; older ones are removed when a new
          one is saved.
        </li>
        <li>Records of failed sign-ins: used for the throttling window (15 minutes by default).</li>
        <li>
          Transfers, matches, imports, saved exports, merges, links and analytics events: until you delete
          your account.
        </li>
      </ul>
    ),
  },
  {
    id: 'your-choices',
    title: 'Downloading and deleting your data',
    body: (
      <>
        <p>
          <strong>Download my data</strong> in <Link href={paths.account}>My Account</Link> gives you a JSON
          file with everything listed above that belongs to you: profile, connections (without tokens),
          transfers, match summaries, imports, exports, backups, merges, links with their counts and analytics
          events.
        </p>
        <p>
          <strong>Delete my account</strong> removes your account and every row that belongs to it at once:
          connections and tokens, sessions, transfers, matches, imports, exports, backups, merges, links,
          background jobs, analytics events and queued e-mails. Playlists Crossfade created on Spotify or
          Apple Music stay in your library there; delete them in those apps if you want them gone.
        </p>
        <p>
          <strong>Disconnect</strong> a service in My Account to delete its stored access right away. You can
          also withdraw access in your Spotify account settings or Apple ID settings.
        </p>
        <p>
          <strong>Public profile</strong> is off unless you turn it on. When on, others can see your taste
          graph and taste timeline, never your e-mail address, playlists or transfers.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Passwords are hashed with Argon2id, service tokens are encrypted at rest, session cookies are
        HTTP-only and protected against cross-site requests, and sign-in attempts are rate limited. No system
        is perfectly secure; if you believe your account was misused, change your password and disconnect your
        services.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <p>
        Crossfade sets two cookies: your sign-in session and a security token that protects forms against
        cross-site request forgery. There are no advertising or third-party tracking cookies.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes and contact',
    body: (
      <p>
        If this policy changes, the date above changes with it. Questions about your data go to the operator
        of this server; see <Link href={paths.help}>Help</Link> for answers to common questions.
      </p>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <Page
      title="Privacy Policy"
      description="What Crossfade stores about you, why, for how long, and how to remove it."
    >
      <Article sections={sections} updated="22 November 2026" />
    </Page>
  );
}
