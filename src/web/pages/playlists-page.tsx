import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useLocation } from 'wouter';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { SERVICE_LABELS } from '../../shared/services';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Input } from '../components/ui/input';
import { Spinner } from '../components/ui/spinner';
import { BatchPicker } from '../features/batches';
import { playlistsQuery } from '../features/playlists';
import {
  CsvImportButton,
  enterStep,
  filterPlaylists,
  goToStep,
  isLibraryCollection,
  PlaylistGrid,
  selectPlaylist,
  useWizard,
  WIZARD_ERRORS,
  WizardPage,
  wizardStore,
} from '../features/transfer';
import { toast } from '../hooks/use-toast';
import { serverMessage } from '../lib/api-client';

const EMPTY_TEXT = 'No playlists found. Please try again or check your account.';

/** Issue 14: Liked Songs and saved albums under "Your library", first; the playlists below them. */
function GroupedPlaylists({
  library,
  playlists,
  query,
  selectedId,
}: {
  library: PlaylistSummary[];
  playlists: PlaylistSummary[];
  query: string;
  selectedId: string | null;
}) {
  const libraryHeadingId = useId();
  const playlistsHeadingId = useId();
  return (
    <div className="grid gap-8">
      <section aria-labelledby={libraryHeadingId} className="grid gap-3">
        <h2 id={libraryHeadingId} className="text-lg font-semibold text-slate-900">
          Your library
        </h2>
        <PlaylistGrid
          playlists={library}
          query={query}
          selectedId={selectedId}
          onSelect={selectPlaylist}
          label="Your library"
        />
      </section>
      {playlists.length > 0 ? (
        <section aria-labelledby={playlistsHeadingId} className="grid gap-3">
          <h2 id={playlistsHeadingId} className="text-lg font-semibold text-slate-900">
            Playlists
          </h2>
          <PlaylistGrid
            playlists={playlists}
            query={query}
            selectedId={selectedId}
            onSelect={selectPlaylist}
          />
        </section>
      ) : null}
    </div>
  );
}

function PlaylistSearch({ query, onChange }: { query: string; onChange: (query: string) => void }) {
  const searchId = useId();
  return (
    <div className="relative w-full sm:max-w-sm">
      <label htmlFor={searchId} className="sr-only">
        Search your playlists
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500"
      />
      <Input
        id={searchId}
        type="search"
        placeholder="Search your playlists..."
        value={query}
        onChange={(event) => onChange(event.target.value)}
        className="pl-9"
      />
    </div>
  );
}

export default function PlaylistsPage() {
  const [, navigate] = useLocation();
  const wizard = useWizard();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState('');
  const source = wizard.sourceService;

  const playlists = useQuery({ ...playlistsQuery(source ?? 'spotify'), enabled: source !== null });

  useEffect(() => {
    enterStep(2);
  }, []);

  // Spec section 8: the failure is kept in the shared error state and shown in place of the list.
  useEffect(() => {
    if (source === null) wizardStore.update({ error: WIZARD_ERRORS.noSourceService });
    else if (playlists.isError)
      wizardStore.update({
        error: serverMessage(playlists.error) ?? `Failed to load playlists from ${SERVICE_LABELS[source]}`,
      });
    else if (wizardStore.getState().error !== null && playlists.isSuccess)
      wizardStore.update({ error: null });
  }, [source, playlists.isError, playlists.error, playlists.isSuccess]);

  const all = playlists.data ?? [];
  const shown = filterPlaylists(all, query);
  // Issue 14: Liked Songs and saved albums, listed apart and first; the playlists below them.
  const shownLibrary = shown.filter(isLibraryCollection);
  const shownPlaylists = shown.filter((playlist) => !isLibraryCollection(playlist));

  const onImported = async (playlist: PlaylistSummary) => {
    if (source !== null) {
      const key = playlistsQuery(source).queryKey;
      // A list still loading would land after the import and hide it.
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<PlaylistSummary[]>(key, (current = []) => [
        playlist,
        ...current.filter((item) => item.id !== playlist.id),
      ]);
      if (queryClient.getQueryState(key)?.status !== 'success')
        void queryClient.invalidateQueries({ queryKey: key });
    }
    setQuery('');
    selectPlaylist(playlist);
  };

  const proceed = () => {
    if (wizard.selectedPlaylist === null) {
      toast({
        title: 'No playlist selected',
        description: 'Please select a playlist to continue.',
        variant: 'destructive',
      });
      return;
    }
    goToStep(3, navigate);
  };

  const body = () => {
    if (playlists.isPending && source !== null)
      return (
        <div className="flex justify-center py-16">
          <Spinner label="Loading playlists" className="h-8 w-8" />
        </div>
      );
    if (wizard.error !== null) return <Alert variant="destructive">{wizard.error}</Alert>;
    if (all.length === 0) return <Alert>{EMPTY_TEXT}</Alert>;
    if (shown.length === 0)
      return <p className="py-8 text-center text-slate-600">No playlists match “{query.trim()}”.</p>;
    const selectedId = wizard.selectedPlaylist?.id ?? null;
    if (shownLibrary.length === 0)
      return (
        <PlaylistGrid playlists={shown} query={query} selectedId={selectedId} onSelect={selectPlaylist} />
      );
    return (
      <GroupedPlaylists
        library={shownLibrary}
        playlists={shownPlaylists}
        query={query}
        selectedId={selectedId}
      />
    );
  };

  return (
    <WizardPage
      title="Select Playlist"
      description={
        source === null
          ? 'Pick the playlist you want to move.'
          : `Pick the ${SERVICE_LABELS[source]} playlist you want to move.`
      }
      step={2}
    >
      <div className="grid gap-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <PlaylistSearch query={query} onChange={setQuery} />
          {source !== null ? <CsvImportButton onImported={onImported} /> : null}
        </div>
        <p className="sr-only" aria-live="polite">
          {playlists.isSuccess ? `${shown.length} of ${all.length} playlists shown` : ''}
        </p>
        <section aria-label="Playlists" aria-busy={playlists.isFetching}>
          {body()}
        </section>
        {source !== null && wizard.destinationService !== null && all.length > 1 ? (
          <BatchPicker playlists={all} source={source} destination={wizard.destinationService} />
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button variant="outline" onClick={() => goToStep(1, navigate)}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back
          </Button>
          <Button onClick={proceed} disabled={playlists.isFetching && playlists.isPending}>
            Continue
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Button>
        </div>
      </div>
    </WizardPage>
  );
}
