// The public face of the service selection feature: pages and other features import from here only.
export { ServiceRadioGroup } from './components/service-radio-group';
export {
  chooseDestination,
  chooseSource,
  clearServicesChosen,
  DEFAULT_CHOICE,
  loadServiceChoice,
  markServicesChosen,
  parseServiceChoice,
  type ServiceChoice,
  saveServiceChoice,
  servicesChosen,
} from './service-choice';
