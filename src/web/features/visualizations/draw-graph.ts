import type { GraphEdge, GraphNode } from '../../../shared/api/visualizations';
import { paletteColor } from '../../../shared/chart-palette';
import type { Point } from './force-layout';

export const GRAPH_WIDTH = 800;
export const GRAPH_HEIGHT = 400;
/** Names drawn on the canvas; the rest are in the text alternative. */
const LABELLED_NODES = 15;
const GROUP_ORDER: GraphNode['group'][] = ['genre', 'artist', 'track'];

/**
 * Node colours: by group when the graph mixes groups (Key Influences), so the legend means something; by
 * rank otherwise, since one colour for every node would say nothing.
 */
export function nodeColor(node: GraphNode, rank: number, mixed: boolean): string {
  return paletteColor(mixed ? GROUP_ORDER.indexOf(node.group) : rank);
}

export function nodeRadius(value: number, maxValue: number): number {
  return 6 + 16 * Math.sqrt(value / Math.max(1, maxValue));
}

export function drawGraph(
  context: CanvasRenderingContext2D,
  graph: { nodes: GraphNode[]; edges: GraphEdge[] },
  positions: Map<string, Point>,
  zoom: number,
) {
  const { width, height } = context.canvas;
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  // An opaque background, so the downloaded PNG is readable in any image viewer.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.translate(width / 2, height / 2);
  context.scale(zoom, zoom);
  context.translate(-GRAPH_WIDTH / 2, -GRAPH_HEIGHT / 2);

  const maxEdge = Math.max(1, ...graph.edges.map((edge) => edge.value));
  for (const edge of graph.edges) {
    const from = positions.get(edge.from);
    const to = positions.get(edge.to);
    if (!from || !to) continue;
    context.strokeStyle = `rgba(100, 116, 139, ${0.2 + 0.5 * (edge.value / maxEdge)})`;
    context.lineWidth = 1 + 3 * (edge.value / maxEdge);
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
  }

  const mixed = new Set(graph.nodes.map((node) => node.group)).size > 1;
  const maxValue = Math.max(1, ...graph.nodes.map((node) => node.value));
  // Largest last, so the important nodes sit on top.
  const order = graph.nodes.map((node, rank) => ({ node, rank })).reverse();
  for (const { node, rank } of order) {
    const point = positions.get(node.id);
    if (!point) continue;
    context.fillStyle = nodeColor(node, rank, mixed);
    context.strokeStyle = '#ffffff';
    context.lineWidth = 2;
    context.beginPath();
    context.arc(point.x, point.y, nodeRadius(node.value, maxValue), 0, Math.PI * 2);
    context.fill();
    context.stroke();
  }

  context.font = '600 12px system-ui, sans-serif';
  context.textBaseline = 'middle';
  const labels = placeLabels(
    graph.nodes.slice(0, LABELLED_NODES).flatMap((node) => {
      const point = positions.get(node.id);
      if (!point) return [];
      const text = node.label.length > 24 ? `${node.label.slice(0, 23)}…` : node.label;
      return [
        { point, radius: nodeRadius(node.value, maxValue), text, width: context.measureText(text).width },
      ];
    }),
  );
  for (const label of labels) {
    context.lineWidth = 3;
    context.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    context.strokeText(label.text, label.x, label.y);
    context.fillStyle = '#0f172a';
    context.fillText(label.text, label.x, label.y);
  }
  context.restore();
}

const LABEL_HEIGHT = 14;

export interface LabelRequest {
  point: Point;
  radius: number;
  text: string;
  width: number;
}
export interface PlacedLabel {
  text: string;
  /** Left end and vertical middle of the text. */
  x: number;
  y: number;
}

/**
 * Labels in rank order, each beside its node (right, left, above or below, whichever is free) and never on
 * top of a label already placed: the strongest nodes sit together in the middle, and their names used to
 * pile up there unreadably. A label with no free side is left out (the list below the graph names it).
 */
export function placeLabels(requests: readonly LabelRequest[]): PlacedLabel[] {
  const taken: { left: number; top: number; right: number; bottom: number }[] = [];
  const placed: PlacedLabel[] = [];
  for (const { point, radius, text, width } of requests) {
    const gap = radius + 4;
    const options = [
      { x: point.x + gap, y: point.y },
      { x: point.x - gap - width, y: point.y },
      { x: point.x - width / 2, y: point.y - gap - LABEL_HEIGHT / 2 },
      { x: point.x - width / 2, y: point.y + gap + LABEL_HEIGHT / 2 },
    ];
    for (const option of options) {
      const box = {
        left: option.x,
        right: option.x + width,
        top: option.y - LABEL_HEIGHT / 2,
        bottom: option.y + LABEL_HEIGHT / 2,
      };
      const clash = taken.some(
        (other) =>
          box.left < other.right &&
          other.left < box.right &&
          box.top < other.bottom &&
          other.top < box.bottom,
      );
      if (clash) continue;
      taken.push(box);
      placed.push({ text, x: option.x, y: option.y });
      break;
    }
  }
  return placed;
}
