import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { paths } from './lib/paths';

// Every page is its own chunk, so a first visit downloads the shell and the one page it opens.
const AccountPage = lazy(() => import('./pages/account-page'));
const AuthPage = lazy(() => import('./pages/auth-page'));
const BatchPage = lazy(() => import('./pages/batch-page'));
const BillingReturnPage = lazy(() => import('./pages/billing-return-page'));
const CompletePage = lazy(() => import('./pages/complete-page'));
const GeoLockPage = lazy(() => import('./pages/geo-lock-page'));
const HelpPage = lazy(() => import('./pages/help-page'));
const HistoryPage = lazy(() => import('./pages/history-page'));
const DisappearedPage = lazy(() => import('./pages/disappeared-page'));
const HomePage = lazy(() => import('./pages/home-page'));
const LinkLandingPage = lazy(() => import('./pages/link-landing'));
const LinkPage = lazy(() => import('./pages/link-page'));
const MatchesPage = lazy(() => import('./pages/matches-page'));
const MatchRulesPage = lazy(() => import('./pages/match-rules-page'));
const MergeInvitePage = lazy(() => import('./pages/merge-invite-page'));
const MergePage = lazy(() => import('./pages/merge-page'));
const MergedPlaylistPage = lazy(() => import('./pages/merged-playlist-page'));
const NotFoundPage = lazy(() => import('./pages/not-found-page'));
const OnboardingPage = lazy(() => import('./pages/onboarding-page'));
const PlaylistsPage = lazy(() => import('./pages/playlists-page'));
const PricingPage = lazy(() => import('./pages/pricing-page'));
const PrivacyPage = lazy(() => import('./pages/privacy-page'));
const RecreatePage = lazy(() => import('./pages/recreate-page'));
const ServiceSelectionPage = lazy(() => import('./pages/service-selection-page'));
const SyncsPage = lazy(() => import('./pages/syncs-page'));
const TermsPage = lazy(() => import('./pages/terms-page'));
const TransferPage = lazy(() => import('./pages/transfer-page'));
const VaultPage = lazy(() => import('./pages/vault-page'));
const VisualizationsPage = lazy(() => import('./pages/visualizations-page'));

/**
 * Shown while a page's chunk arrives: an empty block of a page's height that says "loading" only to
 * screen readers, so a fast load does not flash a spinner.
 */
function PageSkeleton() {
  return (
    <div aria-busy="true" className="mx-auto min-h-[60vh] w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <span className="sr-only" role="status">
        Loading page
      </span>
    </div>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Switch>
        <Route path={paths.home} component={HomePage} />
        <Route path={paths.auth} component={AuthPage} />
        <Route path={paths.serviceSelection} component={ServiceSelectionPage} />
        <Route path={paths.transfer} component={TransferPage} />
        <Route path={paths.playlists} component={PlaylistsPage} />
        <Route path={paths.matches} component={MatchesPage} />
        <Route path={paths.complete} component={CompletePage} />
        <Route path={paths.link} component={LinkPage} />
        <Route path={paths.merge} component={MergePage} />
        <Route path={paths.geoLock} component={GeoLockPage} />
        <Route path={paths.onboarding} component={OnboardingPage} />
        <Route path={paths.visualizations} component={VisualizationsPage} />
        <Route path={paths.account} component={AccountPage} />
        <Route path={paths.privacy} component={PrivacyPage} />
        <Route path={paths.terms} component={TermsPage} />
        <Route path={paths.help} component={HelpPage} />
        <Route path={paths.pricing} component={PricingPage} />
        <Route path={paths.vault} component={VaultPage} />
        <Route path={paths.recreate} component={RecreatePage} />
        <Route path={paths.matchRules} component={MatchRulesPage} />
        <Route path="/batches/:id" component={BatchPage} />
        <Route path={paths.syncs} component={SyncsPage} />
        <Route path={paths.billingReturn} component={BillingReturnPage} />
        <Route path={paths.disappeared} component={DisappearedPage} />
        <Route path="/history/:service/:playlistId" component={HistoryPage} />
        <Route path="/l/:slug" component={LinkLandingPage} />
        <Route path="/m/:id" component={MergedPlaylistPage} />
        <Route path="/merge/invite/:token" component={MergeInvitePage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
