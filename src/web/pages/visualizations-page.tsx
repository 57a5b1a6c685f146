import { Page } from '../components/layout/page';
import { VisualizationsView } from '../features/visualizations';

export default function VisualizationsPage() {
  return (
    <Page
      title="Features"
      width="wide"
      description="Explore your taste graph and taste timeline, export playlists, merge with a friend and find alternatives for geo-locked tracks."
    >
      <VisualizationsView />
    </Page>
  );
}
