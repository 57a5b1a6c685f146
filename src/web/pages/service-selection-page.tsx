import { ArrowRight } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import { Page } from '../components/layout/page';
import { Button } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';
import {
  chooseDestination,
  chooseSource,
  DEFAULT_CHOICE,
  loadServiceChoice,
  markServicesChosen,
  type ServiceChoice,
  ServiceRadioGroup,
  saveServiceChoice,
} from '../features/services';
import { transferPath } from '../lib/paths';
import { track } from '../lib/track';

const initialChoice = (): ServiceChoice =>
  (typeof sessionStorage === 'undefined' ? undefined : loadServiceChoice(sessionStorage)) ?? DEFAULT_CHOICE;

export default function ServiceSelectionPage() {
  const [, navigate] = useLocation();
  const [choice, setChoice] = useState<ServiceChoice>(initialChoice);

  const pick = (selectionType: 'source' | 'destination') => (service: ServiceId) => {
    track('service_button_clicked', { service, selection_type: selectionType });
    setChoice((current) =>
      selectionType === 'source' ? chooseSource(current, service) : chooseDestination(current, service),
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    saveServiceChoice(sessionStorage, choice);
    markServicesChosen(sessionStorage);
    track('service_selection', { source_service: choice.from, destination_service: choice.to });
    navigate(transferPath(choice.from, choice.to));
  };

  return (
    <Page
      title="Choose your services"
      description="Pick where your playlists live now and where you want them to go."
    >
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <form onSubmit={submit} className="grid gap-8" aria-label="Choose services">
            <ServiceRadioGroup
              legend="Transfer from"
              name="from"
              value={choice.from}
              onChange={pick('source')}
            />
            <ServiceRadioGroup
              legend="Transfer to"
              name="to"
              value={choice.to}
              onChange={pick('destination')}
            />
            <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-slate-600" aria-live="polite">
                {SERVICE_LABELS[choice.from]} → {SERVICE_LABELS[choice.to]}
              </p>
              <Button type="submit" size="lg">
                Continue
                <ArrowRight aria-hidden="true" className="h-5 w-5" />
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </Page>
  );
}
