import { PlaceholderPage } from '../components/layout/page';

export default function VisualizationsPage() {
  return (
    <PlaceholderPage
      title="Features"
      description="Explore your taste graph, your taste timeline, exports, friend merges and geo-lock alternatives."
    />
  );
}
