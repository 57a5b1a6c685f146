import { PLAN_LABELS, type SessionUser } from '../../../../shared/api/auth';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

export function ProfileCard({ user }: { user: SessionUser }) {
  const rows: [string, string][] = [
    ['Username', user.username],
    ['Email', user.email],
    ['Plan', PLAN_LABELS[user.plan]],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-[8rem_1fr]">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-sm font-medium text-slate-600">{term}</dt>
              <dd className="break-all text-sm text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
