import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { paths } from '../../lib/paths';

const linkClass =
  'rounded text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600';

/** The account page's way to the match rules page. */
export function MatchRulesCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Match rules</CardTitle>
        <CardDescription>
          Every match you fix by hand is remembered and applied to the same song in later transfers.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link href={paths.matchRules} className={linkClass}>
          See, change and delete your match rules
        </Link>
      </CardContent>
    </Card>
  );
}
