import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Spinner } from '../../components/ui/spinner';
import { linkStatsQuery } from './links-api';

/** The owner's last 30 days (a module of its own: Recharts loads only when stats are shown): views and signups per day. */
export default function LinkStatsChart({ linkId }: { linkId: string }) {
  const stats = useQuery(linkStatsQuery(linkId));
  if (stats.isPending) return <Spinner label="Loading statistics" />;
  if (stats.isError) return <p className="text-sm text-red-700">Could not load the statistics.</p>;
  const data = stats.data.days.map((day) => ({ ...day, label: day.date.slice(5) }));
  return (
    <figure className="h-56 w-full" aria-label="Views and signups over the last 30 days">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={6} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          <Line type="monotone" dataKey="views" name="Views" stroke="#6d28d9" dot={false} />
          <Line type="monotone" dataKey="signups" name="Signups" stroke="#059669" dot={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
