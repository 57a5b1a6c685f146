// The public face of the export feature: other features import from here only.
export { ExportPanel } from './export-panel';
