import { Download } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { paths } from '../../../lib/paths';
import { track } from '../../../lib/track';
import { DeleteAccountDialog } from './delete-account-dialog';

export function YourDataCard({ username }: { username: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Download a copy of everything Crossfade stores about you, or delete your account and all of it. The{' '}
          <Link
            href={paths.privacy}
            className="rounded text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
          >
            Privacy Policy
          </Link>{' '}
          explains what that is.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <a
          href="/api/account/export"
          download
          className={buttonClasses('outline')}
          onClick={() => track('feature_used', { feature: 'account_data_download' })}
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download my data
        </a>
        <DeleteAccountDialog username={username} />
      </CardContent>
    </Card>
  );
}
