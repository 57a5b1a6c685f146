import { PlaceholderPage } from '../components/layout/page';

export default function RecreatePage() {
  return <PlaceholderPage title="Recreate a Playlist" description="Rebuild a playlist you have lost." />;
}
