// The public face of the connections feature: other features import from here only.
export {
  type ConnectionStart,
  endConnection,
  prepareAppleConnection,
  startConnection,
} from './service-connection';
