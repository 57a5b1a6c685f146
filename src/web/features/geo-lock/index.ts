// The public face of the geo-lock feature: other features import from here only.
export { GeoLockPanel } from './geo-lock-panel';
