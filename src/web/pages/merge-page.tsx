import { PlaceholderPage } from '../components/layout/page';

export default function MergePage() {
  return <PlaceholderPage title="Friend Merge" description="Blend your playlist with a friend's." />;
}
