import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type TasteGraphType,
  type TimelineRange,
  tasteGraphSchema,
  tasteTimelineSchema,
} from '../../../shared/api/visualizations';
import { request } from '../../lib/api-client';

export const tasteGraphQuery = (type: TasteGraphType) =>
  queryOptions({
    queryKey: ['taste-graph', type],
    queryFn: ({ signal }) =>
      request(tasteGraphSchema, 'GET', `/api/taste-graph?type=${encodeURIComponent(type)}`, undefined, {
        signal,
      }),
  });

export const tasteTimelineQuery = (range: TimelineRange) =>
  queryOptions({
    queryKey: ['taste-timeline', range],
    queryFn: ({ signal }) =>
      request(
        tasteTimelineSchema,
        'GET',
        `/api/taste-timeline?timeRange=${encodeURIComponent(range)}`,
        undefined,
        {
          signal,
        },
      ),
  });

export const useTasteGraph = (type: TasteGraphType) => useQuery(tasteGraphQuery(type));
export const useTasteTimeline = (range: TimelineRange) => useQuery(tasteTimelineQuery(range));
