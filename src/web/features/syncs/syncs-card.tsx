import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { paths } from '../../lib/paths';

const linkClass =
  'rounded text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600';

/** The account page's way to the syncs page. */
export function SyncsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Syncs</CardTitle>
        <CardDescription>
          Keep a pair of playlists in sync, one way (what is new in the source is added to the destination) or
          both ways (Pro).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link href={paths.syncs} className={linkClass}>
          See and manage your syncs
        </Link>
      </CardContent>
    </Card>
  );
}
