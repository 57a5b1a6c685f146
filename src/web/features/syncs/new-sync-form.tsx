import { type FormEvent, useState } from 'react';
import {
  SYNC_SCHEDULES,
  type SyncDirection,
  type SyncSchedule,
  TWO_WAY_CONFLICT_RULE,
} from '../../../shared/api/syncs';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { sameNameDetails, withTwinDetails } from '../../components/playlist-twins';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { usePlaylistsOf } from '../playlists';
import { useCreateSync } from './syncs-api';

const SERVICES: ServiceId[] = ['spotify', 'apple'];
const selectClass = 'h-10 rounded-md border border-slate-300 bg-white px-2 text-sm';
const NEW_PLAYLIST = '';

function ServiceSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: ServiceId;
  onChange: (service: ServiceId) => void;
}) {
  return (
    <label className="grid gap-1 text-sm">
      {label}
      <select
        className={selectClass}
        value={value}
        onChange={(event) => onChange(event.target.value as ServiceId)}
      >
        {SERVICES.map((service) => (
          <option key={service} value={service}>
            {SERVICE_LABELS[service]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One way or two ways; the two-way conflict rule is spelled out when chosen. */
function DirectionChoice({
  value,
  onChange,
}: {
  value: SyncDirection;
  onChange: (direction: SyncDirection) => void;
}) {
  return (
    <fieldset className="grid gap-1 text-sm">
      <legend className="font-medium">Direction</legend>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="direction"
          value="one-way"
          checked={value === 'one-way'}
          onChange={() => onChange('one-way')}
        />
        One way: the source's changes go to the destination
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="direction"
          value="two-way"
          checked={value === 'two-way'}
          onChange={() => onChange('two-way')}
        />
        Two ways: changes on either side go to the other (Pro)
      </label>
      {value === 'two-way' ? <p className="text-slate-600">{TWO_WAY_CONFLICT_RULE}</p> : null}
    </fieldset>
  );
}

/** Creates a sync; its first run is a preview, shown in the list below. */
export function NewSyncForm() {
  const [sourceService, setSourceService] = useState<ServiceId>('spotify');
  const [destinationService, setDestinationService] = useState<ServiceId>('apple');
  const [sourcePlaylistId, setSourcePlaylistId] = useState('');
  const [destinationPlaylistId, setDestinationPlaylistId] = useState(NEW_PLAYLIST);
  const [schedule, setSchedule] = useState<SyncSchedule>('daily');
  const [removals, setRemovals] = useState(false);
  const [direction, setDirection] = useState<SyncDirection>('one-way');
  const playlists = usePlaylistsOf(SERVICES);
  const listOf = (service: ServiceId) =>
    (playlists.data ?? [])
      .find((item) => item.service === service)
      ?.playlists.filter((playlist) => (playlist.kind ?? 'playlist') === 'playlist') ?? [];
  // Same-named playlists say what tells them apart (issue 23).
  const twinsOf = (service: ServiceId) => sameNameDetails(listOf(service));
  const create = useCreateSync();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        sourceService,
        sourcePlaylistId,
        destinationService,
        ...(destinationPlaylistId === NEW_PLAYLIST ? {} : { destinationPlaylistId }),
        schedule,
        removals,
        direction,
      },
      {
        onSuccess: () =>
          toast({
            title: 'Sync created',
            description: 'Its first run is a preview: see what it would change below.',
          }),
        onError: (error) =>
          toast({
            title: 'The sync could not be created',
            description: serverMessage(error) ?? 'Please try again.',
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="New sync"
    >
      <div className="flex flex-wrap gap-3">
        <ServiceSelect
          label="From"
          value={sourceService}
          onChange={(service) => {
            setSourceService(service);
            setSourcePlaylistId('');
          }}
        />
        <label className="grid gap-1 text-sm">
          Source playlist
          <select
            className={selectClass}
            value={sourcePlaylistId}
            required
            onChange={(event) => setSourcePlaylistId(event.target.value)}
          >
            <option value="">Choose a playlist</option>
            {listOf(sourceService).map((playlist) => (
              <option key={playlist.id} value={playlist.id}>
                {withTwinDetails(playlist.name, twinsOf(sourceService).get(playlist.id))}
              </option>
            ))}
          </select>
        </label>
        <ServiceSelect
          label="To"
          value={destinationService}
          onChange={(service) => {
            setDestinationService(service);
            setDestinationPlaylistId(NEW_PLAYLIST);
          }}
        />
        <label className="grid gap-1 text-sm">
          Destination playlist
          <select
            className={selectClass}
            value={destinationPlaylistId}
            onChange={(event) => setDestinationPlaylistId(event.target.value)}
          >
            <option value={NEW_PLAYLIST}>A new playlist (created on the first run)</option>
            {listOf(destinationService)
              .filter((playlist) => playlist.isOwned !== false)
              .map((playlist) => (
                <option key={playlist.id} value={playlist.id}>
                  {withTwinDetails(playlist.name, twinsOf(destinationService).get(playlist.id))}
                </option>
              ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          Schedule
          <select
            className={selectClass}
            value={schedule}
            onChange={(event) => setSchedule(event.target.value as SyncSchedule)}
          >
            {SYNC_SCHEDULES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DirectionChoice value={direction} onChange={setDirection} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={removals} onChange={(event) => setRemovals(event.target.checked)} />
        {direction === 'two-way'
          ? 'Apply removals to the other side (Spotify only; Apple Music playlists cannot lose tracks, so removals there are listed with an offer to rebuild)'
          : 'Remove from the destination what is removed from the source (Spotify only; Apple Music playlists cannot lose tracks, so removals there are listed)'}
      </label>
      {playlists.isError ? (
        <p role="alert" className="text-sm text-red-800">
          Your playlists could not be loaded: connect both services on the transfer page first.
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={create.isPending || sourcePlaylistId === ''}>
          {create.isPending ? 'Creating…' : 'Create sync'}
        </Button>
      </div>
    </form>
  );
}
