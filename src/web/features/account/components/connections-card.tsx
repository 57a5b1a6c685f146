import { useEffect } from 'react';
import type { AccountProfile } from '../../../../shared/api/account';
import { SERVICE_LABELS, type ServiceId } from '../../../../shared/services';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { prepareAppleConnection } from '../../connections';
import { formatDate } from '../account-api';
import { useConnectionChange } from '../account-connections';

const SERVICES: ServiceId[] = ['spotify', 'apple'];
/** Countries a person can name when the service does not tell us theirs (search answers per country). */
const COUNTRIES = [
  'US',
  'GB',
  'CA',
  'AU',
  'IE',
  'DE',
  'AT',
  'CH',
  'FR',
  'ES',
  'IT',
  'NL',
  'SE',
  'BR',
  'MX',
  'JP',
  'KR',
  'IN',
];

export function ConnectionsCard({ profile }: { profile: AccountProfile }) {
  const connectionChange = useConnectionChange();
  const busy = connectionChange.isPending;
  const appleButtonShown = !profile.connections.some((connection) => connection.service === 'apple');
  useEffect(() => {
    if (appleButtonShown) prepareAppleConnection();
  }, [appleButtonShown]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connected services</CardTitle>
        <CardDescription>
          Crossfade reads and creates playlists only on the services you connect. Disconnecting deletes the
          stored access at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-slate-200">
          {SERVICES.map((service) => {
            const connection = profile.connections.find((candidate) => candidate.service === service);
            const label = SERVICE_LABELS[service];
            return (
              <li
                key={service}
                aria-labelledby={`connection-${service}`}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div>
                  <p id={`connection-${service}`} className="font-medium text-slate-900">
                    {label}
                  </p>
                  <p className="text-sm text-slate-600">
                    {connection
                      ? `Connected${connection.displayName ? ` as ${connection.displayName}` : ''} since ${formatDate(connection.authorizedAt)}`
                      : 'Not connected'}
                  </p>
                  {connection ? (
                    <label className="mt-1 flex items-center gap-2 text-sm text-slate-600">
                      {connection.region ? 'Country' : 'Country unknown: choose yours'}
                      <select
                        className="rounded border border-slate-300 px-1 py-0.5"
                        value={connection.region?.toUpperCase() ?? ''}
                        disabled={busy}
                        onChange={(event) =>
                          connectionChange.mutate({ service, change: 'region', region: event.target.value })
                        }
                      >
                        {connection.region ? null : <option value="">Choose…</option>}
                        {[
                          ...new Set([
                            ...(connection.region ? [connection.region.toUpperCase()] : []),
                            ...COUNTRIES,
                          ]),
                        ].map((country) => (
                          <option key={country} value={country}>
                            {country}
                          </option>
                        ))}
                      </select>
                    </label>
                  ) : null}
                </div>
                {connection ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={busy}
                    onClick={() => connectionChange.mutate({ service, change: 'disconnect' })}
                    aria-label={`Disconnect ${label}`}
                  >
                    Disconnect
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => connectionChange.mutate({ service, change: 'connect' })}
                    aria-label={`Connect ${label}`}
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
