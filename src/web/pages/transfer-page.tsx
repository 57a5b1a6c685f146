import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';
import {
  chooseDestination,
  chooseSource,
  clearServicesChosen,
  DEFAULT_CHOICE,
  loadServiceChoice,
  parseServiceChoice,
  ServiceRadioGroup,
  saveServiceChoice,
  servicesChosen,
} from '../features/services';
import {
  ConnectionPanel,
  chooseServices,
  enterStep,
  goToStep,
  isConnected,
  takePendingConnect,
  useWizard,
  WizardPage,
  wizardStore,
} from '../features/transfer';
import { useAuth } from '../hooks/use-auth';
import { toast } from '../hooks/use-toast';
import { paths } from '../lib/paths';
import { track } from '../lib/track';

/** Services from `?from=&to=`, else the wizard's, else /service-selection's, else the default. */
function initialServices(search: string): void {
  const query = new URLSearchParams(search);
  const fromUrl = parseServiceChoice(query.get('from'), query.get('to'));
  const state = wizardStore.getState();
  if (fromUrl) {
    chooseServices(fromUrl.from, fromUrl.to);
  } else if (state.sourceService === null || state.destinationService === null) {
    const stored = loadServiceChoice(sessionStorage) ?? DEFAULT_CHOICE;
    chooseServices(stored.from, stored.to);
  }
}

/** `?connected=` / `?connectError=` left by the consent pages: announced once, then dropped from the URL. */
function announceConnection(search: string, navigate: (to: string, options: { replace: boolean }) => void) {
  const query = new URLSearchParams(search);
  const connected = query.get('connected');
  const connectError = query.get('connectError');
  if (connected === null && connectError === null) return;
  const pending = takePendingConnect();
  if (connected === 'spotify' || connected === 'apple') {
    track('service_connected', { service: connected, success: true });
    toast({ title: `Connected to ${SERVICE_LABELS[connected]}` });
  } else if (connectError !== null) {
    track('service_connected', { service: pending ?? 'unknown', success: false });
    wizardStore.update({ error: connectError });
    toast({
      title: pending ? `Failed to connect to ${SERVICE_LABELS[pending]}` : 'Connection failed',
      description: connectError,
      variant: 'destructive',
    });
  }
  query.delete('connected');
  query.delete('connectError');
  const rest = query.toString();
  navigate(rest === '' ? paths.transfer : `${paths.transfer}?${rest}`, { replace: true });
}

export default function TransferPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const wizard = useWizard();
  const auth = useAuth();
  // Services chosen on /service-selection are not asked for again (issue 23 item 7).
  const [chosenBefore, setChosenBefore] = useState(() => servicesChosen(sessionStorage));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL is read once, on arrival.
  useEffect(() => {
    enterStep(1);
    initialServices(search);
    announceConnection(search, navigate);
  }, []);

  const source = wizard.sourceService;
  const destination = wizard.destinationService;
  const bothConnected =
    source !== null && destination !== null && isConnected(auth, source) && isConnected(auth, destination);

  // Chosen on /service-selection and both connected: straight on to step 2, once (Back returns to step 1).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the connections become known.
  useEffect(() => {
    if (!chosenBefore || auth.isLoading || !bothConnected) return;
    clearServicesChosen(sessionStorage);
    setChosenBefore(false);
    goToStep(2, navigate);
  }, [chosenBefore, auth.isLoading, bothConnected]);

  const changeServices = () => {
    clearServicesChosen(sessionStorage);
    setChosenBefore(false);
  };

  const pick = (selectionType: 'source' | 'destination') => (service: ServiceId) => {
    track('service_button_clicked', { service, selection_type: selectionType });
    const current = { from: source ?? DEFAULT_CHOICE.from, to: destination ?? DEFAULT_CHOICE.to };
    const next =
      selectionType === 'source' ? chooseSource(current, service) : chooseDestination(current, service);
    chooseServices(next.from, next.to);
    saveServiceChoice(sessionStorage, next);
  };

  const proceed = () => {
    if (source === null || destination === null) {
      toast({ title: 'Please select both source and destination services.', variant: 'destructive' });
      return;
    }
    if (source === destination) {
      toast({ title: 'Source and destination services must be different.', variant: 'destructive' });
      return;
    }
    for (const service of [source, destination]) {
      if (!isConnected(auth, service)) {
        toast({
          title: `Please connect to ${SERVICE_LABELS[service]} before continuing.`,
          variant: 'destructive',
        });
        return;
      }
    }
    track('service_selection', { source_service: source, destination_service: destination });
    goToStep(2, navigate);
  };

  const busy = wizard.loading || auth.isLoading;
  return (
    <WizardPage
      title="Transfer Playlists"
      description="Choose your services, pick a playlist, review the matches and transfer."
      step={1}
    >
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <Card>
          <CardContent className="grid gap-8 pt-5 sm:pt-6">
            {wizard.error ? <Alert variant="destructive">{wizard.error}</Alert> : null}
            {source !== null && destination !== null && chosenBefore ? (
              <div className="grid gap-3">
                <p className="text-base text-slate-900">
                  From <strong>{SERVICE_LABELS[source]}</strong> to{' '}
                  <strong>{SERVICE_LABELS[destination]}</strong>, as you chose. Connect both services to
                  continue.
                </p>
                <div>
                  <Button variant="outline" size="sm" onClick={changeServices}>
                    Change services
                  </Button>
                </div>
              </div>
            ) : source !== null && destination !== null ? (
              <>
                <ServiceRadioGroup
                  legend="Transfer from"
                  name="from"
                  value={source}
                  onChange={pick('source')}
                />
                <ServiceRadioGroup
                  legend="Transfer to"
                  name="to"
                  value={destination}
                  onChange={pick('destination')}
                />
              </>
            ) : null}
            <div className="flex justify-end">
              <Button size="lg" disabled={busy || source === null || destination === null} onClick={proceed}>
                Continue
                <ArrowRight aria-hidden="true" className="h-5 w-5" />
              </Button>
            </div>
          </CardContent>
        </Card>
        <ConnectionPanel auth={auth} busy={busy} />
      </div>
    </WizardPage>
  );
}
