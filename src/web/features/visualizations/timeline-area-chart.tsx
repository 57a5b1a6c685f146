import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TasteTimeline } from '../../../shared/api/visualizations';
import { paletteColor } from '../../../shared/chart-palette';
import { chartRows } from './timeline-summary';

/** The stacked area chart of a taste timeline; its own module so Recharts loads only where it is drawn. */
export default function TimelineAreaChart({
  years,
  series,
}: {
  years: TasteTimeline['years'];
  series: TasteTimeline['genres'];
}) {
  const names = Object.keys(series);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={chartRows(years, series)} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis dataKey="year" tick={{ fontSize: 12 }} />
        <YAxis
          domain={[0, 100]}
          ticks={[0, 25, 50, 75, 100]}
          tickFormatter={(value) => `${value}%`}
          width={52}
        />
        <Tooltip formatter={(value) => `${value}%`} />
        <Legend />
        {names.map((name, index) => (
          <Area
            key={name}
            type="linear"
            dataKey={name}
            stackId="share"
            stroke={paletteColor(index)}
            fill={paletteColor(index)}
            fillOpacity={0.7}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
