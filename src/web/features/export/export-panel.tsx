import { Download, Lock } from 'lucide-react';
import { useId, useState } from 'react';
import type { ExportFormat, ExportPlaylistRequest } from '../../../shared/api/export';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useAuth } from '../../hooks/use-auth';
import { track } from '../../lib/track';
import { CloudSaveSection } from './cloud-save-section';
import { type ExportablePlaylist, useExportablePlaylists, useExportDownload } from './export-api';
import { downloadedToast, exportFailedToast, noDataToast } from './export-toasts';
import { PlaylistPicker } from './playlist-picker';
import { useCloudAnnouncement } from './use-cloud-announcement';
import { VaultNotice } from './vault-notice';

interface Options {
  includeMetadata: boolean;
  includeLinks: boolean;
  includeArtwork: boolean;
}

/** The request for a playlist in a format: only the toggles shown for that format apply to it. */
function exportRequest(
  chosen: ExportablePlaylist,
  format: ExportFormat,
  options: Options,
): Required<ExportPlaylistRequest> {
  return {
    service: chosen.service,
    playlistId: chosen.id,
    format,
    includeMetadata: format !== 'zip' && options.includeMetadata,
    includeLinks: format === 'json' && options.includeLinks,
    includeArtwork: format === 'zip' && options.includeArtwork,
  };
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
  const download = useExportDownload();
  const pickerId = useId();
  useCloudAnnouncement();
  const isVault = user?.plan === 'vault';

  const list = playlists.data?.playlists ?? [];
  const readable = list.filter((playlist) => !playlist.unreadableReason);
  const selected = readable.find((playlist) => playlist.id === selectedId) ?? readable[0];
  const setOption = (key: keyof Options) => (checked: boolean) =>
    setOptions((now) => ({ ...now, [key]: checked }));
  const blockedZip = format === 'zip' && !isVault;
  const request = selected && !blockedZip ? exportRequest(selected, format, options) : undefined;
  const used = () => track('export_used', { export_type: format, playlist_id: selected?.id ?? '' });

  const exportFile = () => {
    if (!request || !selected) return;
    if (selected.trackCount === 0) {
      noDataToast();
      return;
    }
    download.mutate(request, {
      onSuccess: (fileName) => {
        used();
        downloadedToast(fileName);
      },
      onError: exportFailedToast,
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Export Options</CardTitle>
        <CardDescription>
          Download a playlist as CSV or JSON, or as a ZIP archive with its artwork.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <PlaylistPicker
          id={pickerId}
          playlists={list}
          selected={selected}
          onSelect={setSelectedId}
          loading={playlists.isPending}
          failed={playlists.isError}
          onRetry={() => void playlists.refetch()}
          sample={playlists.data?.sample === true}
        />
        <FormatTabs
          format={format}
          onFormat={setFormat}
          options={options}
          setOption={setOption}
          isVault={isVault}
        />
        <Button onClick={exportFile} disabled={download.isPending || !request}>
          <Download aria-hidden="true" className="h-4 w-4" />
          {download.isPending ? 'Exporting…' : `Export ${format.toUpperCase()}`}
        </Button>
        <CloudSaveSection
          request={selected?.trackCount === 0 ? undefined : request}
          signedIn={user !== null}
          isVault={isVault}
          onSaved={used}
        />
      </CardContent>
    </Card>
  );
}

function FormatTabs({
  format,
  onFormat,
  options,
  setOption,
  isVault,
}: {
  format: ExportFormat;
  onFormat: (format: ExportFormat) => void;
  options: Options;
  setOption: (key: keyof Options) => (checked: boolean) => void;
  isVault: boolean;
}) {
  return (
    <Tabs value={format} onValueChange={(value) => onFormat(value as ExportFormat)}>
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
        <Toggle label="Include Links" checked={options.includeLinks} onChange={setOption('includeLinks')} />
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
