import { useState } from 'react';
import { useLocation } from 'wouter';
import { otherService, SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { openInWizard } from '../transfer';
import { ProblemList } from './problem-list';
import type { RebuiltPlaylist } from './recreate-api';

const SERVICES: ServiceId[] = ['spotify', 'apple'];

/** The rebuilt list goes through the wizard's normal matching and review on the chosen service. */
export function ChooseDestination({
  result,
  onStartOver,
}: {
  result: RebuiltPlaylist;
  onStartOver: () => void;
}) {
  const [, navigate] = useLocation();
  const [destination, setDestination] = useState<ServiceId>(
    result.originService ? otherService(result.originService) : 'spotify',
  );
  const { playlist } = result;
  return (
    <Card role="region" aria-label="Playlist ready">
      <CardHeader>
        <CardTitle>{playlist.name}</CardTitle>
        <CardDescription>
          {playlist.trackCount === 1 ? '1 song is' : `${playlist.trackCount} songs are`} ready to be matched.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ProblemList problems={result.problems} />
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Recreate it on</legend>
          <div className="flex gap-4">
            {SERVICES.map((service) => (
              <label key={service} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name="recreate-destination"
                  value={service}
                  checked={destination === service}
                  onChange={() => setDestination(service)}
                />
                {SERVICE_LABELS[service]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button
            onClick={() =>
              openInWizard(
                {
                  // A rebuilt list belongs to no service; the wizard needs a source different from the destination.
                  sourceService: result.originService ?? otherService(destination),
                  destinationService: destination,
                  playlist,
                },
                navigate,
              )
            }
          >
            Match songs
          </Button>
          <Button variant="ghost" onClick={onStartOver}>
            Start over
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
