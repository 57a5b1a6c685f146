import {
  type GraphEdge,
  type GraphNode,
  MAX_GRAPH_NODES,
  type TasteGraphType,
} from '../../shared/api/visualizations';
import { genreLabel, type Library, type LibraryTrack, uniqueTracks } from './library';

/**
 * The taste graph (spec section 2): nodes are genres, artists or (Key Influences) a mix with tracks;
 * two genres or artists are linked when they appear in the same playlist, the edge's value being how many
 * playlists hold both. One large playlist links everything to everything, so each node keeps only its
 * strongest links (`EDGES_PER_NODE`) and the graph at most `MAX_EDGES`: enough to show clusters without
 * drawing a solid hairball.
 */

const EDGES_PER_NODE = 3;
const MAX_EDGES = 80;
/** Key Influences: how many of each kind, within MAX_GRAPH_NODES. */
const INFLUENCE_GENRES = 8;
const INFLUENCE_ARTISTS = 20;
const INFLUENCE_TRACKS = MAX_GRAPH_NODES - INFLUENCE_GENRES - INFLUENCE_ARTISTS;

export interface GraphShape {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function buildTasteGraph(library: Library, type: TasteGraphType): GraphShape {
  if (type === 'genres') return cooccurrenceGraph(library, 'genre', (track) => track.genres);
  if (type === 'artists') return cooccurrenceGraph(library, 'artist', (track) => track.artists);
  return influenceGraph(library);
}

const nodeId = (group: GraphNode['group'], name: string) => `${group}:${name}`;

/** Descending by value, then by label, so equal libraries always give the same graph. */
const byValue = <T extends { value: number; label: string }>(a: T, b: T) =>
  b.value - a.value || a.label.localeCompare(b.label);

function countNames(tracks: LibraryTrack[], names: (track: LibraryTrack) => string[]) {
  const counts = new Map<string, number>();
  for (const track of tracks) {
    for (const name of new Set(names(track))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

function topNodes(counts: Map<string, number>, group: GraphNode['group'], limit: number): GraphNode[] {
  return [...counts]
    .map(([name, value]) => ({
      id: nodeId(group, name),
      label: group === 'genre' ? genreLabel(name) : name,
      value,
      group,
    }))
    .sort(byValue)
    .slice(0, limit);
}

function cooccurrenceGraph(
  library: Library,
  group: 'genre' | 'artist',
  names: (track: LibraryTrack) => string[],
): GraphShape {
  const nodes = topNodes(countNames(uniqueTracks(library), names), group, MAX_GRAPH_NODES);
  const kept = new Set(nodes.map((node) => node.id));
  const pairs = new Map<string, GraphEdge>();
  for (const playlist of library.playlists) {
    const present = [...new Set(playlist.tracks.flatMap(names))]
      .map((name) => nodeId(group, name))
      .filter((id) => kept.has(id))
      .sort();
    for (let i = 0; i < present.length; i += 1) {
      for (let j = i + 1; j < present.length; j += 1) {
        const from = present[i] ?? '';
        const to = present[j] ?? '';
        const key = `${from}\u0000${to}`;
        const edge = pairs.get(key) ?? { from, to, value: 0 };
        edge.value += 1;
        pairs.set(key, edge);
      }
    }
  }
  return { nodes, edges: strongestEdges(nodes, [...pairs.values()]) };
}

function strongestEdges(nodes: GraphNode[], edges: GraphEdge[]): GraphEdge[] {
  const weight = new Map(nodes.map((node) => [node.id, node.value]));
  const strength = (edge: GraphEdge) => (weight.get(edge.from) ?? 0) + (weight.get(edge.to) ?? 0);
  const ordered = [...edges].sort(
    (a, b) =>
      b.value - a.value || strength(b) - strength(a) || `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`),
  );
  const perNode = new Map<string, number>();
  const chosen: GraphEdge[] = [];
  for (const edge of ordered) {
    const fromCount = perNode.get(edge.from) ?? 0;
    const toCount = perNode.get(edge.to) ?? 0;
    if (fromCount >= EDGES_PER_NODE && toCount >= EDGES_PER_NODE) continue;
    chosen.push(edge);
    perNode.set(edge.from, fromCount + 1);
    perNode.set(edge.to, toCount + 1);
    if (chosen.length >= MAX_EDGES) break;
  }
  return chosen;
}

/**
 * Key Influences: the leading genres, the artists with the most tracks (linked to their two main genres),
 * and the tracks found in the most playlists (linked to their artists): who and what shapes the library.
 */
function influenceGraph(library: Library): GraphShape {
  const tracks = uniqueTracks(library);
  const genres = topNodes(
    countNames(tracks, (track) => track.genres),
    'genre',
    INFLUENCE_GENRES,
  );
  const artists = topNodes(
    countNames(tracks, (track) => track.artists),
    'artist',
    INFLUENCE_ARTISTS,
  );
  const playlistsPerTrack = new Map<string, number>();
  for (const playlist of library.playlists) {
    for (const key of new Set(playlist.tracks.map((track) => track.key)))
      playlistsPerTrack.set(key, (playlistsPerTrack.get(key) ?? 0) + 1);
  }
  const artistIds = new Set(artists.map((node) => node.id));
  const trackNodes: GraphNode[] = tracks
    .filter((track) => track.artists.some((artist) => artistIds.has(nodeId('artist', artist))))
    .map((track) => ({
      id: nodeId('track', track.key),
      label: track.name,
      value: playlistsPerTrack.get(track.key) ?? 1,
      group: 'track' as const,
    }))
    .sort(byValue)
    .slice(0, INFLUENCE_TRACKS);

  const genreIds = new Set(genres.map((node) => node.id));
  const edges: GraphEdge[] = [];
  for (const artist of artists) {
    const name = artist.id.slice('artist:'.length);
    const own = tracks.filter((track) => track.artists.includes(name));
    const perGenre = countNames(own, (track) => track.genres);
    const linked = [...perGenre]
      .filter(([genre]) => genreIds.has(nodeId('genre', genre)))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 2);
    for (const [genre, value] of linked) edges.push({ from: artist.id, to: nodeId('genre', genre), value });
  }
  const byKey = new Map(tracks.map((track) => [track.key, track]));
  for (const node of trackNodes) {
    const track = byKey.get(node.id.slice('track:'.length));
    for (const artist of track?.artists ?? []) {
      const id = nodeId('artist', artist);
      if (artistIds.has(id)) edges.push({ from: node.id, to: id, value: node.value });
    }
  }
  return { nodes: [...genres, ...artists, ...trackNodes], edges };
}
