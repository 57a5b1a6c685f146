import { Download, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TasteGraph, TasteGraphType } from '../../../shared/api/visualizations';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { toast } from '../../hooks/use-toast';
import { drawGraph, GRAPH_HEIGHT, GRAPH_WIDTH, nodeColor } from './draw-graph';
import { forceLayout } from './force-layout';
import { useErrorToast } from './use-error-toast';
import { useTasteGraph } from './visualizations-api';
import { MAX_ZOOM, MIN_ZOOM, stepZoom } from './zoom';

const GRAPH_TABS: { type: TasteGraphType; label: string; description: string }[] = [
  { type: 'genres', label: 'Genre Connections', description: 'genres linked when they share a playlist' },
  { type: 'artists', label: 'Artists Network', description: 'artists linked when they share a playlist' },
  {
    type: 'connections',
    label: 'Key Influences',
    description:
      'your leading genres, the artists with the most tracks, and the tracks in the most playlists',
  },
];
const DOWNLOAD_NAME = 'taste-graph.png';
const GROUP_LABELS = { genre: 'Genres', artist: 'Artists', track: 'Tracks' } as const;

export function TasteGraphCard() {
  const [type, setType] = useState<TasteGraphType>('genres');
  const [zoom, setZoom] = useState(1);
  const genres = useTasteGraph('genres');
  const topGenres = (genres.data?.nodes ?? []).filter((node) => node.group === 'genre').slice(0, 5);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Taste Graph</CardTitle>
        <CardDescription>How the music in your playlists hangs together.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {topGenres.length > 0 ? (
          <div>
            <h3 className="sr-only">Top genres</h3>
            <ul className="flex flex-wrap gap-2" aria-label="Top genres">
              {topGenres.map((node) => (
                <li
                  key={node.id}
                  className="rounded-full bg-violet-100 px-3 py-1 text-xs font-semibold text-violet-900"
                >
                  {node.label}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <Tabs value={type} onValueChange={(value) => setType(value as TasteGraphType)}>
          <TabsList aria-label="Graph type" className="w-full sm:w-auto">
            {GRAPH_TABS.map((tab) => (
              <TabsTrigger key={tab.type} value={tab.type}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {GRAPH_TABS.map((tab) => (
            <TabsContent key={tab.type} value={tab.type}>
              <GraphView
                type={tab.type}
                label={tab.label}
                description={tab.description}
                zoom={zoom}
                setZoom={setZoom}
              />
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}

interface GraphViewProps {
  type: TasteGraphType;
  label: string;
  description: string;
  zoom: number;
  setZoom: (zoom: number) => void;
}

function GraphView({ type, label, description, zoom, setZoom }: GraphViewProps) {
  const query = useTasteGraph(type);
  useErrorToast(query.error, 'Failed to load taste graph data');

  if (query.isPending) {
    return (
      <div className="flex h-64 items-center justify-center">
        <Spinner label="Loading your taste graph" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        Could not load your taste graph.{' '}
        <Button variant="link" size="sm" className="h-auto p-0" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <GraphCanvas graph={query.data} label={label} description={description} zoom={zoom} setZoom={setZoom} />
  );
}

function GraphCanvas({
  graph,
  label,
  description,
  zoom,
  setZoom,
}: { graph: TasteGraph } & Omit<GraphViewProps, 'type'>) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const positions = useMemo(
    () => forceLayout(graph.nodes, graph.edges, { width: GRAPH_WIDTH, height: GRAPH_HEIGHT }),
    [graph],
  );

  useEffect(() => {
    const context = canvasRef.current?.getContext('2d');
    if (context) drawGraph(context, graph, positions, zoom);
  }, [graph, positions, zoom]);

  const groups = [...new Map(graph.nodes.map((node) => [node.group, node])).values()];
  const names = new Map(graph.nodes.map((node) => [node.id, node.label]));
  const linksOf = (id: string) =>
    graph.edges
      .filter((edge) => edge.from === id || edge.to === id)
      .map((edge) => names.get(edge.from === id ? edge.to : edge.from) ?? '')
      .filter(Boolean);

  const download = () => {
    canvasRef.current?.toBlob((blob) => {
      if (!blob) {
        toast({ title: 'Error', description: 'Could not create the image', variant: 'destructive' });
        return;
      }
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = DOWNLOAD_NAME;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, 'image/png');
  };

  if (graph.nodes.length === 0) {
    return (
      <p className="text-sm text-slate-600">Your playlists do not have enough tracks to draw a graph yet.</p>
    );
  }
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <fieldset className="flex items-center gap-2 border-0 p-0">
          <legend className="sr-only">Zoom</legend>
          <Button
            variant="outline"
            size="icon"
            aria-label="Zoom out"
            disabled={zoom <= MIN_ZOOM}
            onClick={() => setZoom(stepZoom(zoom, -1))}
          >
            <ZoomOut aria-hidden="true" className="h-4 w-4" />
          </Button>
          <output className="w-14 text-center text-sm tabular-nums text-slate-700" aria-label="Zoom level">
            {Math.round(zoom * 100)}%
          </output>
          <Button
            variant="outline"
            size="icon"
            aria-label="Zoom in"
            disabled={zoom >= MAX_ZOOM}
            onClick={() => setZoom(stepZoom(zoom, 1))}
          >
            <ZoomIn aria-hidden="true" className="h-4 w-4" />
          </Button>
        </fieldset>
        <Button variant="outline" onClick={download}>
          <Download aria-hidden="true" className="h-4 w-4" />
          Download PNG
        </Button>
      </div>
      {/* Narrow screens (issue 23): the graph keeps its full size in a region panned by scrolling or
          dragging, with the zoom above; wide screens fit it to the card. */}
      <section
        className="overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-violet-600 sm:overflow-hidden"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1)
        tabIndex={0}
        aria-label={`${label}, scroll to pan`}
      >
        <canvas
          ref={canvasRef}
          width={GRAPH_WIDTH}
          height={GRAPH_HEIGHT}
          className="block h-auto w-[800px] max-w-none sm:w-full sm:max-w-full"
          role="img"
          aria-label={`${label}: ${description}. ${graph.nodes.length} nodes; the list below describes them.`}
        />
      </section>
      {groups.length > 1 ? (
        <ul className="flex flex-wrap gap-4 text-xs text-slate-700" aria-label="Legend">
          {groups.map((node) => (
            <li key={node.group} className="flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="inline-block h-3 w-3 rounded-full"
                style={{ backgroundColor: nodeColor(node, 0, true) }}
              />
              {GROUP_LABELS[node.group]}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-xs text-slate-600">
        {graph.sample ? 'Sample library: ' : ''}
        {graph.source.trackCount} tracks in {graph.source.playlistCount} playlists
        {graph.source.tracksWithoutGenres > 0
          ? `; ${graph.source.tracksWithoutGenres} tracks had no genre information and are left out of genre views`
          : ''}
        .
      </p>
      {/* Shown on narrow screens, where the drawing is hard to read; for screen readers everywhere. */}
      <div className="text-sm text-slate-800 sm:sr-only">
        <h3 className="font-semibold text-slate-900">{label}, as a list</h3>
        <ol className="mt-2 grid gap-1.5" aria-label={`${label}, as a list`}>
          {graph.nodes.map((node) => {
            const links = linksOf(node.id);
            return (
              <li key={node.id} className="rounded-md bg-slate-50 px-2 py-1.5">
                <span className="font-medium">{node.label}</span> ({node.group}, {node.value})
                {links.length > 0 ? `, connected to ${links.join(', ')}` : ''}
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
