import { CheckCircle2, CircleSlash } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { SERVICE_LABELS, type ServiceId } from '../../../../shared/services';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import type { AuthState } from '../../../hooks/use-auth';
import { paths } from '../../../lib/paths';
import { prepareAppleConnection } from '../../connections';
import { connectService, disconnectService } from '../service-connections';

const SERVICES: ServiceId[] = ['spotify', 'apple'];

export const isConnected = (auth: AuthState, service: ServiceId) =>
  service === 'spotify' ? auth.status.spotifyConnected : auth.status.appleConnected;

/** Spec section 2 step 1: Connected, or Not connected with a Connect button, per service. */
export function ConnectionPanel({ auth, busy }: { auth: AuthState; busy: boolean }) {
  const appleButtonShown = auth.isAuthenticated && !auth.status.appleConnected;
  useEffect(() => {
    if (appleButtonShown) prepareAppleConnection();
  }, [appleButtonShown]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connections</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!auth.isLoading && !auth.isAuthenticated ? (
          <p className="rounded-lg bg-violet-50 p-3 text-sm text-slate-800">
            <Link href={paths.auth} className="font-semibold text-violet-800 underline underline-offset-2">
              Sign in
            </Link>{' '}
            to connect Spotify and Apple Music.
          </p>
        ) : null}
        <ul className="grid gap-3">
          {SERVICES.map((service) => {
            const connected = isConnected(auth, service);
            const label = SERVICE_LABELS[service];
            return (
              <li
                key={service}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 p-3"
                aria-label={label}
              >
                <div>
                  <p className="font-medium text-slate-900">{label}</p>
                  <p
                    className={
                      connected
                        ? 'flex items-center gap-1 text-sm text-green-800'
                        : 'flex items-center gap-1 text-sm text-slate-600'
                    }
                  >
                    {connected ? (
                      <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
                    ) : (
                      <CircleSlash aria-hidden="true" className="h-4 w-4" />
                    )}
                    {connected ? 'Connected' : 'Not connected'}
                  </p>
                </div>
                {!auth.isAuthenticated ? (
                  <Link href={paths.auth} className={buttonClasses('outline', 'sm')}>
                    Sign in to connect
                  </Link>
                ) : connected ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={busy}
                    aria-label={`Disconnect ${label}`}
                    onClick={() => void disconnectService(service)}
                  >
                    Disconnect
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    disabled={busy}
                    aria-label={`Connect ${label}`}
                    onClick={() => void connectService(service)}
                  >
                    Connect
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
