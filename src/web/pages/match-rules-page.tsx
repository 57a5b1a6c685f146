import { Redirect } from 'wouter';
import { Page } from '../components/layout/page';
import { Spinner } from '../components/ui/spinner';
import { MatchRuleList } from '../features/match-rules';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

const DESCRIPTION =
  'Fixes you made on a match are remembered and applied to the same song in every later transfer, shown as "Your rule". Delete a rule to let Crossfade match that song on its own again.';

export default function MatchRulesPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <Page title="Match rules">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  return (
    <Page title="Match rules" description={DESCRIPTION}>
      <MatchRuleList />
    </Page>
  );
}
