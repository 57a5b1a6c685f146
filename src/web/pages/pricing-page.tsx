import { Page } from '../components/layout/page';
import { PlanCards, PricingTable } from '../features/pricing';
import { useAuth } from '../hooks/use-auth';

export default function PricingPage() {
  const { user } = useAuth();
  const currentPlan = user?.plan ?? null;
  return (
    <Page
      title="Pricing"
      width="wide"
      description="Free gets you one transfer a month. Pro makes transfers unlimited. Vault+ adds daily backups, ZIP export and cloud save."
    >
      <div className="grid grid-cols-[minmax(0,1fr)] gap-10">
        <PlanCards currentPlan={currentPlan} />
        <section aria-labelledby="compare-plans" className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <h2 id="compare-plans" className="text-xl font-semibold text-slate-900">
            Compare plans
          </h2>
          <PricingTable currentPlan={currentPlan} />
          <p className="text-sm text-slate-600">
            Free: 1 transfer per month, resets in 29 days. The month is counted from the day you started your
            transfer, and failed transfers never count.
          </p>
        </section>
      </div>
    </Page>
  );
}
