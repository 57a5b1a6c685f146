import { PlaceholderPage } from '../components/layout/page';

export default function PlaylistsPage() {
  return <PlaceholderPage title="Select Playlist" description="Pick the playlist you want to move." />;
}
