import { Link } from 'wouter';
import { FREE_TRANSFERS_PER_PERIOD, PLAN_PERIOD_DAYS } from '../../shared/api/plans';
import { Page } from '../components/layout/page';
import { Article, type ArticleSection } from '../features/account';
import { paths } from '../lib/paths';

const sections: ArticleSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    body: (
      <p>
        By creating an account or using Crossfade you agree to these terms and to the{' '}
        <Link href={paths.privacy}>Privacy Policy</Link>. If you do not agree, do not use the service.
        Crossfade is run by the operator of this server, who may change these terms; the date above shows when
        they last changed.
      </p>
    ),
  },
  {
    id: 'service',
    title: 'What Crossfade does',
    body: (
      <p>
        Crossfade copies playlists between Spotify and Apple Music. It reads the playlist you choose, finds
        each song on the other service, lets you review the matches, and creates a new playlist in your
        account there. It also offers exports, backups, friend merges, sniper links and geo-lock alternatives.
        Matching is automatic and can be wrong: check the review step before you transfer. Crossfade never
        deletes or changes your existing playlists.
      </p>
    ),
  },
  {
    id: 'plans',
    title: 'Plans and payment',
    body: (
      <>
        <ul>
          <li>
            <strong>Free</strong>: {FREE_TRANSFERS_PER_PERIOD} transfer in any {PLAN_PERIOD_DAYS} days. A
            transfer counts for {PLAN_PERIOD_DAYS} days from when you started it; failed transfers do not
            count.
          </li>
          <li>
            <strong>Pro</strong>: unlimited transfers.
          </li>
          <li>
            <strong>Vault+</strong>: everything in Pro, plus daily backups of your playlists, restoring from
            backups, ZIP export and saving exports to Crossfade storage.
          </li>
        </ul>
        <p>
          Prices and how to pay are shown on <Link href={paths.pricing}>Pricing</Link>. Where payments are not
          set up, the operator of this server assigns plans. If you move to a lower plan, features of the
          higher plan stop; your existing backups and saved exports remain downloadable until you delete your
          account.
        </p>
      </>
    ),
  },
  {
    id: 'your-account',
    title: 'Your account',
    body: (
      <p>
        Keep your password to yourself; you are responsible for what happens under your account. You can
        delete your account at any time in <Link href={paths.account}>My Account</Link>. The operator may
        suspend accounts that break these terms.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>You may use Crossfade only for your own music library and playlists shared with you. Do not:</p>
        <ul>
          <li>copy playlists you have no right to use, or use Crossfade to infringe anyone's rights;</li>
          <li>
            automate requests, scrape the service, or try to get around plan limits, rate limits or security
            measures;
          </li>
          <li>use sniper links or friend invitations to send spam or to mislead people;</li>
          <li>interfere with the service or other people's use of it.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'provider-terms',
    title: 'Spotify and Apple Music',
    body: (
      <>
        <p>
          Your use of Spotify and Apple Music stays subject to their own terms, and Crossfade is bound by
          their developer terms. Crossfade works through their public APIs, with your permission, and only as
          those APIs allow: for example Apple Music's API cannot edit a playlist after it is created, and
          Spotify limits which playlists an app may read. If a service changes or withdraws its API, features
          that depend on it may stop working.
        </p>
        <p>
          <strong>
            Crossfade is not affiliated with, endorsed by or sponsored by Apple Inc. or Spotify AB.
          </strong>{' '}
          Apple Music is a trademark of Apple Inc. Spotify is a trademark of Spotify AB.
        </p>
      </>
    ),
  },
  {
    id: 'content',
    title: 'Your content',
    body: (
      <p>
        Playlists, names and files you bring remain yours. You give Crossfade permission to store and process
        them only to provide the features you use. Song metadata and artwork belong to their owners and are
        shown as the services provide them.
      </p>
    ),
  },
  {
    id: 'warranty',
    title: 'No warranty; limitation of liability',
    body: (
      <p>
        Crossfade is provided "as is". Matches may be wrong and songs may be missing on the other service;
        backups are a convenience, not a guarantee. To the extent the law allows, the operator is not liable
        for lost playlists, lost data or indirect damages arising from the use of Crossfade.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <Page title="Terms of Service" description="The rules for using Crossfade and its plans.">
      <Article sections={sections} updated="22 November 2026" />
    </Page>
  );
}
