import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useAuth } from '../../hooks/use-auth';
import { paths } from '../../lib/paths';
import { buttonClasses } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Spinner } from '../ui/spinner';
import { Page } from './page';

/**
 * A page whose content needs a signed-in person: a spinner while the status loads, an invitation to sign
 * in (saying why) for visitors, and the page itself otherwise.
 */
export function SignedInOnly(props: {
  title: string;
  description: string;
  signInTitle: string;
  signInReason: string;
  children: ReactNode;
}) {
  const { user, isLoading } = useAuth();
  if (user && !isLoading) return <>{props.children}</>;
  return (
    <Page title={props.title} description={props.description}>
      {isLoading ? (
        <Spinner label="Loading" />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{props.signInTitle}</CardTitle>
            <CardDescription>{props.signInReason}</CardDescription>
          </CardHeader>
          <CardContent>
            <Link href={paths.auth} className={buttonClasses('primary')}>
              Sign in
            </Link>
          </CardContent>
        </Card>
      )}
    </Page>
  );
}
