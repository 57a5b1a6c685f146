import type { ServiceId } from '../../../shared/services';

/**
 * Hands a ready source playlist (a restored backup, a recreated playlist, an import) to the transfer
 * wizard, which picks it up on /matches and runs the normal match → review → transfer steps.
 */
export const WIZARD_HANDOFF_KEY = 'crossfade.wizard.handoff';

export interface WizardHandoff {
  sourceService: ServiceId;
  destinationService: ServiceId;
  playlist: { id: string; name: string; trackCount: number };
}

export function openInWizard(handoff: WizardHandoff, navigate: (path: string) => void) {
  sessionStorage.setItem(WIZARD_HANDOFF_KEY, JSON.stringify(handoff));
  navigate('/matches');
}

/** Read once by the wizard; the handoff is removed as it is taken. */
export function takeWizardHandoff(): WizardHandoff | null {
  const raw = sessionStorage.getItem(WIZARD_HANDOFF_KEY);
  if (!raw) return null;
  sessionStorage.removeItem(WIZARD_HANDOFF_KEY);
  try {
    return JSON.parse(raw) as WizardHandoff;
  } catch {
    return null;
  }
}
