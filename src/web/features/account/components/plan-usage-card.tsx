import { Link } from 'wouter';
import { PLAN_LABELS } from '../../../../shared/api/auth';
import { daysUntilReset } from '../../../../shared/api/plans';
import { buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { formatDate, useUsage } from '../account-api';

const daysLabel = (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`;

export function PlanUsageCard() {
  const usage = useUsage();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Plan and usage</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {usage.isPending ? (
          <Spinner label="Loading your usage" />
        ) : usage.isError ? (
          <p className="text-sm text-red-800">Your usage could not be loaded. Please reload the page.</p>
        ) : (
          <dl className="grid gap-3 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm font-medium text-slate-600">Current plan</dt>
            <dd className="text-sm text-slate-900">{PLAN_LABELS[usage.data.plan]}</dd>
            <dt className="text-sm font-medium text-slate-600">Transfers this month</dt>
            <dd className="text-sm text-slate-900">
              {usage.data.transfersAllowed === null
                ? `${usage.data.transfersUsed} used · Unlimited`
                : `${usage.data.transfersUsed} of ${usage.data.transfersAllowed} used`}
            </dd>
            {usage.data.transfersAllowed !== null ? (
              <>
                <dt className="text-sm font-medium text-slate-600">Limit resets</dt>
                <dd className="text-sm text-slate-900">
                  {usage.data.resetsAt
                    ? `In ${daysLabel(daysUntilReset(new Date(usage.data.resetsAt)))} (${formatDate(usage.data.resetsAt)})`
                    : 'Your next transfer starts a new month'}
                </dd>
              </>
            ) : null}
          </dl>
        )}
        <div className="flex flex-wrap gap-3">
          <Link href={paths.pricing} className={buttonClasses('outline', 'sm')}>
            Compare plans
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}
