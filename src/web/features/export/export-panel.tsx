import { Cloud, Download, HardDrive, Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import {
  CLOUD_TARGET_LABELS,
  CLOUD_TARGETS,
  type CloudTarget,
  EXPORT_COMPLETE_TITLE,
  EXPORT_FAILED_MESSAGE,
  EXPORT_FAILED_TITLE,
  type ExportFormat,
  NO_DATA_MESSAGE,
} from '../../../shared/api/export';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useAuth } from '../../hooks/use-auth';
import { toast } from '../../hooks/use-toast';
import { errorStatus, serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { track } from '../../lib/track';
import { downloadExport, type ExportablePlaylist, saveToCloud, useExportablePlaylists } from './export-api';

interface Options {
  includeMetadata: boolean;
  includeLinks: boolean;
  includeArtwork: boolean;
}

/** Spec section 2's export panel: CSV, JSON and (Vault+) ZIP downloads, and (Vault+) Save to Cloud. */
export function ExportPanel() {
  const { status, user, isLoading } = useAuth();
  const playlists = useExportablePlaylists(status, isLoading);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [selectedId, setSelectedId] = useState<string>('');
  const [options, setOptions] = useState<Options>({
    includeMetadata: false,
    includeLinks: false,
    includeArtwork: false,
  });
  const [exporting, setExporting] = useState(false);
  const pickerId = useId();
  const isVault = user?.plan === 'vault';

  const list = playlists.data?.playlists ?? [];
  const selected: ExportablePlaylist | undefined =
    list.find((playlist) => playlist.id === selectedId) ?? list[0];
  const setOption = (key: keyof Options) => (checked: boolean) =>
    setOptions((now) => ({ ...now, [key]: checked }));

  const request = (chosen: ExportablePlaylist, as: ExportFormat) => ({
    service: chosen.service,
    playlistId: chosen.id,
    format: as,
    // Only the toggles shown for a format apply to it.
    includeMetadata: as !== 'zip' && options.includeMetadata,
    includeLinks: as === 'json' && options.includeLinks,
    includeArtwork: as === 'zip' && options.includeArtwork,
  });

  const failed = (error: unknown) => {
    const status = errorStatus(error);
    const message = serverMessage(error);
    if (message === NO_DATA_MESSAGE) {
      toast({
        title: NO_DATA_MESSAGE,
        description: 'Choose a playlist with at least one track.',
        variant: 'destructive',
      });
      return;
    }
    toast({
      title: EXPORT_FAILED_TITLE,
      description:
        status === 402 || status === 501 ? (message ?? EXPORT_FAILED_MESSAGE) : EXPORT_FAILED_MESSAGE,
      variant: 'destructive',
    });
  };

  const run = async (work: (chosen: ExportablePlaylist) => Promise<string>) => {
    if (!selected) return;
    if (selected.trackCount === 0) {
      toast({
        title: NO_DATA_MESSAGE,
        description: 'Choose a playlist with at least one track.',
        variant: 'destructive',
      });
      return;
    }
    setExporting(true);
    try {
      const done = await work(selected);
      track('export_used', { export_type: format, playlist_id: selected.id });
      toast({ title: EXPORT_COMPLETE_TITLE, description: done });
    } catch (error) {
      failed(error);
    } finally {
      setExporting(false);
    }
  };

  const exportFile = () =>
    run(async (chosen) => `Downloaded ${await downloadExport(request(chosen, format))}`);
  const exportToCloud = (target: CloudTarget) =>
    run(async (chosen) => {
      const saved = await saveToCloud({ ...request(chosen, format), target });
      return `Saved ${saved.fileName} to ${CLOUD_TARGET_LABELS[target]}`;
    });

  const blockedZip = format === 'zip' && !isVault;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Export Options</CardTitle>
        <CardDescription>
          Download a playlist as CSV or JSON, or as a ZIP archive with its artwork.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="space-y-2">
          <Label htmlFor={pickerId}>Playlist</Label>
          <select
            id={pickerId}
            value={selected?.id ?? ''}
            disabled={playlists.isPending || list.length === 0}
            onChange={(event) => setSelectedId(event.target.value)}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
          >
            {playlists.isPending ? <option value="">Loading your playlists…</option> : null}
            {list.map((playlist) => (
              <option key={playlist.id} value={playlist.id}>
                {playlist.label}
              </option>
            ))}
          </select>
          {playlists.isError ? (
            <p role="alert" className="text-sm text-red-800">
              Could not load your playlists.{' '}
              <Button
                variant="link"
                size="sm"
                className="h-auto p-0"
                onClick={() => void playlists.refetch()}
              >
                Try again
              </Button>
            </p>
          ) : null}
          {playlists.data?.sample ? (
            <p className="text-xs text-slate-600">
              These are sample playlists; connect a service to export your own.
            </p>
          ) : null}
        </div>

        <Tabs value={format} onValueChange={(value) => setFormat(value as ExportFormat)}>
          <TabsList aria-label="Export format">
            <TabsTrigger value="csv">CSV</TabsTrigger>
            <TabsTrigger value="json">JSON</TabsTrigger>
            <TabsTrigger value="zip">ZIP</TabsTrigger>
          </TabsList>
          <TabsContent value="csv" className="space-y-4">
            <p className="text-sm text-slate-600">Columns: Track Name, Artist, Album, Duration.</p>
            <Toggle
              label="Include Metadata"
              checked={options.includeMetadata}
              onChange={setOption('includeMetadata')}
            />
          </TabsContent>
          <TabsContent value="json" className="space-y-4">
            <p className="text-sm text-slate-600">The playlist and its tracks as structured data.</p>
            <Toggle
              label="Include Metadata"
              checked={options.includeMetadata}
              onChange={setOption('includeMetadata')}
            />
            <Toggle
              label="Include Links"
              checked={options.includeLinks}
              onChange={setOption('includeLinks')}
            />
          </TabsContent>
          <TabsContent value="zip" className="space-y-4">
            <p className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900">
              <Lock aria-hidden="true" className="h-3.5 w-3.5" /> Vault+ premium feature
            </p>
            <p className="text-sm text-slate-600">The JSON and CSV files together, with cover artwork.</p>
            <Toggle
              label="Include Artwork"
              checked={options.includeArtwork}
              onChange={setOption('includeArtwork')}
            />
            {!isVault ? <VaultNotice what="ZIP export" /> : null}
          </TabsContent>
        </Tabs>

        <Button onClick={() => void exportFile()} disabled={exporting || !selected || blockedZip}>
          <Download aria-hidden="true" className="h-4 w-4" />
          {exporting ? 'Exporting…' : `Export ${format.toUpperCase()}`}
        </Button>

        <section aria-labelledby={`${pickerId}-cloud`} className="space-y-3 border-t border-slate-200 pt-5">
          <h3 id={`${pickerId}-cloud`} className="flex items-center gap-2 font-semibold text-slate-900">
            <Cloud aria-hidden="true" className="h-4 w-4" /> Save to Cloud
          </h3>
          {!isVault ? <VaultNotice what="Save to Cloud" /> : null}
          <div className="flex flex-wrap gap-2">
            {CLOUD_TARGETS.map((target) => (
              <Button
                key={target}
                variant="outline"
                disabled={exporting || !isVault || !selected || blockedZip}
                onClick={() => void exportToCloud(target)}
              >
                <HardDrive aria-hidden="true" className="h-4 w-4" />
                {CLOUD_TARGET_LABELS[target]}
              </Button>
            ))}
          </div>
        </section>
      </CardContent>
    </Card>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}

function VaultNotice({ what }: { what: string }) {
  return (
    <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {what} is a Vault+ premium feature. A Vault+ subscription is required to use it.{' '}
      <Link href={paths.pricing} className="font-semibold underline underline-offset-2">
        See plans
      </Link>
    </p>
  );
}
