import { Route, Switch } from 'wouter';
import { paths } from './lib/paths';
import AccountPage from './pages/account-page';
import AuthPage from './pages/auth-page';
import CompletePage from './pages/complete-page';
import GeoLockPage from './pages/geo-lock-page';
import HelpPage from './pages/help-page';
import HomePage from './pages/home-page';
import LinkLandingPage from './pages/link-landing';
import LinkPage from './pages/link-page';
import MatchesPage from './pages/matches-page';
import MergeInvitePage from './pages/merge-invite-page';
import MergePage from './pages/merge-page';
import MergedPlaylistPage from './pages/merged-playlist-page';
import NotFoundPage from './pages/not-found-page';
import OnboardingPage from './pages/onboarding-page';
import PlaylistsPage from './pages/playlists-page';
import PricingPage from './pages/pricing-page';
import PrivacyPage from './pages/privacy-page';
import RecreatePage from './pages/recreate-page';
import ServiceSelectionPage from './pages/service-selection-page';
import TermsPage from './pages/terms-page';
import TransferPage from './pages/transfer-page';
import VaultPage from './pages/vault-page';
import VisualizationsPage from './pages/visualizations-page';

export function AppRoutes() {
  return (
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
      <Route path="/l/:slug" component={LinkLandingPage} />
      <Route path="/m/:id" component={MergedPlaylistPage} />
      <Route path="/merge/invite/:token" component={MergeInvitePage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
