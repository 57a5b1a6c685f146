import type { ReactNode } from 'react';
import { Page } from '../../../components/layout/page';
import { useWizard } from '../wizard-queries';
import { isStepCompleted, type WizardStep } from '../wizard-state';
import { StepIndicator } from './step-indicator';

/** The frame every wizard step shares: its h1, the step indicator, then the step. */
export function WizardPage({
  title,
  description,
  step,
  children,
}: {
  title: string;
  description: ReactNode;
  step: WizardStep;
  children: ReactNode;
}) {
  const wizard = useWizard();
  return (
    <Page title={title} description={description} width="wide">
      <StepIndicator current={step} isCompleted={(done) => isStepCompleted(wizard, done, step)} />
      {children}
    </Page>
  );
}
