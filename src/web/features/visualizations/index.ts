// The public face of the visualizations feature: pages and other features import from here only.
export { VisualizationsView } from './visualizations-view';
