import { type FormEvent, useId, useState } from 'react';
import { RECREATE_MESSAGES } from '../../../shared/api/recreate';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { ProblemList } from './problem-list';
import { problemsOf, type RebuiltPlaylist, type RecreateSource, useRecreate } from './recreate-api';

type Run = (source: RecreateSource) => void;

function PasteList({ run, busy }: { run: Run; busy: boolean }) {
  const textId = useId();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      toast({
        title: 'Missing information',
        description: RECREATE_MESSAGES.nameRequired,
        variant: 'destructive',
      });
      return;
    }
    if (text.trim() === '') {
      toast({
        title: 'Missing information',
        description: RECREATE_MESSAGES.listRequired,
        variant: 'destructive',
      });
      return;
    }
    run({ from: 'list', recreate: { name: name.trim(), text } });
  };
  return (
    <form className="grid gap-4" aria-label="Paste a list of songs" onSubmit={submit} noValidate>
      <TextField
        label="Playlist name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={100}
      />
      <div className="grid gap-2">
        <Label htmlFor={textId}>Songs, one per line</Label>
        <textarea
          id={textId}
          rows={10}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={'Daft Punk - One More Time\nHey Jude by The Beatles'}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
        />
      </div>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Rebuilding…' : 'Rebuild playlist'}
        </Button>
      </div>
    </form>
  );
}

function CsvFile({ run, busy }: { run: Run; busy: boolean }) {
  const inputId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>An old CSV export (Crossfade, Exportify or a spreadsheet)</Label>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) run({ from: 'csv', file });
        }}
        className="text-sm"
      />
    </div>
  );
}

function ShareUrlSource({ run, busy }: { run: Run; busy: boolean }) {
  const [url, setUrl] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() === '') {
      toast({
        title: 'Missing information',
        description: 'Please enter a playlist URL',
        variant: 'destructive',
      });
      return;
    }
    run({ from: 'link', playlistUrl: url.trim() });
  };
  return (
    <form className="grid gap-4" aria-label="Rebuild from a share URL" onSubmit={submit} noValidate>
      <TextField
        label="Playlist share URL"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        placeholder="https://open.spotify.com/playlist/… or https://music.apple.com/…"
        inputMode="url"
      />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Reading…' : 'Read playlist'}
        </Button>
      </div>
    </form>
  );
}

/** The three ways back to a lost playlist: typed titles, an old CSV export, or a link that still opens. */
export function RecreateSources({ onRebuilt }: { onRebuilt: (result: RebuiltPlaylist) => void }) {
  const recreate = useRecreate();
  const busy = recreate.isPending;
  const problems = recreate.error ? problemsOf(recreate.error) : [];
  const run: Run = (source) =>
    recreate.mutate(source, {
      onSuccess: onRebuilt,
      onError: (error) =>
        toast({
          title: 'Could not rebuild the playlist',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  return (
    <div className="grid gap-4">
      <Tabs defaultValue="list">
        <TabsList className="w-full">
          <TabsTrigger value="list">Paste a list</TabsTrigger>
          <TabsTrigger value="csv">CSV file</TabsTrigger>
          <TabsTrigger value="link">Share URL</TabsTrigger>
        </TabsList>
        <TabsContent value="list">
          <PasteList run={run} busy={busy} />
        </TabsContent>
        <TabsContent value="csv">
          <CsvFile run={run} busy={busy} />
        </TabsContent>
        <TabsContent value="link">
          <ShareUrlSource run={run} busy={busy} />
        </TabsContent>
      </Tabs>
      <ProblemList problems={problems} />
    </div>
  );
}
