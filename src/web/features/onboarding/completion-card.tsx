import { CheckCircle2 } from 'lucide-react';
import type { OnboardingTarget } from '../../../shared/onboarding-routing';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ROUTE_LABELS } from './chat-model';

/** Spec section 2: the completion card; its button needs at least 4 messages. */
export function CompletionCard({
  route,
  enabled,
  onComplete,
}: {
  route: OnboardingTarget;
  enabled: boolean;
  onComplete: () => void;
}) {
  return (
    <Card role="region" aria-label="You're all set">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-emerald-600" />
          You're all set
        </CardTitle>
        <CardDescription>
          Based on our chat, the best place to start is: <strong>{ROUTE_LABELS[route]}</strong>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button onClick={onComplete} disabled={!enabled}>
          Complete
        </Button>
      </CardContent>
    </Card>
  );
}
