import { otherService, type ServiceId, serviceIdSchema } from '../../../shared/services';

/** Where /service-selection leaves the choice for the transfer wizard, besides the URL. */
export const SERVICE_CHOICE_STORAGE_KEY = 'crossfade.services';

export interface ServiceChoice {
  from: ServiceId;
  to: ServiceId;
}

export const DEFAULT_CHOICE: ServiceChoice = { from: 'spotify', to: 'apple' };

/** Spec section 2: when source and destination become the same, the destination flips to the other. */
export function chooseSource(choice: ServiceChoice, from: ServiceId): ServiceChoice {
  return { from, to: from === choice.to ? otherService(from) : choice.to };
}

export function chooseDestination(choice: ServiceChoice, to: ServiceId): ServiceChoice {
  return { from: choice.from, to: to === choice.from ? otherService(to) : to };
}

/** Reads a stored or URL-given choice; anything malformed falls back to undefined. */
export function parseServiceChoice(from: unknown, to: unknown): ServiceChoice | undefined {
  const source = serviceIdSchema.safeParse(from);
  const destination = serviceIdSchema.safeParse(to);
  if (!source.success || !destination.success || source.data === destination.data) return undefined;
  return { from: source.data, to: destination.data };
}

export function loadServiceChoice(storage: Pick<Storage, 'getItem'>): ServiceChoice | undefined {
  try {
    const raw = storage.getItem(SERVICE_CHOICE_STORAGE_KEY);
    if (raw === null) return undefined;
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    return parseServiceChoice(Reflect.get(parsed, 'from'), Reflect.get(parsed, 'to'));
  } catch {
    return undefined;
  }
}

export function saveServiceChoice(storage: Pick<Storage, 'setItem'>, choice: ServiceChoice): void {
  try {
    storage.setItem(SERVICE_CHOICE_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Private mode or a full quota: the URL still carries the choice.
  }
}

/**
 * Set when the person chose the services on /service-selection (issue 23 item 7): step 1 then only asks
 * for what is missing (the connections) and moves on to step 2 by itself, once, instead of asking again.
 */
export const SERVICES_CHOSEN_STORAGE_KEY = 'crossfade.services.chosen';

export function markServicesChosen(storage: Pick<Storage, 'setItem'>): void {
  try {
    storage.setItem(SERVICES_CHOSEN_STORAGE_KEY, '1');
  } catch {
    // Private mode or a full quota: step 1 then shows the choice again, which is still correct.
  }
}

export function servicesChosen(storage: Pick<Storage, 'getItem'>): boolean {
  try {
    return storage.getItem(SERVICES_CHOSEN_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearServicesChosen(storage: Pick<Storage, 'removeItem'>): void {
  try {
    storage.removeItem(SERVICES_CHOSEN_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
