import { useQuery } from '@tanstack/react-query';
import type { TasteGraph, TasteGraphType, TasteTimeline, TimelineRange } from '../../../shared/api/insights';
import { apiJson } from '../../lib/api-client';

export function useTasteGraph(type: TasteGraphType) {
  return useQuery({
    queryKey: ['/api/taste-graph', type],
    queryFn: () => apiJson<TasteGraph>('GET', `/api/taste-graph?type=${encodeURIComponent(type)}`),
  });
}

export function useTasteTimeline(range: TimelineRange) {
  return useQuery({
    queryKey: ['/api/taste-timeline', range],
    queryFn: () =>
      apiJson<TasteTimeline>('GET', `/api/taste-timeline?timeRange=${encodeURIComponent(range)}`),
  });
}
