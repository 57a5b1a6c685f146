import { PlaceholderPage } from '../components/layout/page';

export default function TransferPage() {
  return (
    <PlaceholderPage
      title="Transfer Playlists"
      description="Choose your services, pick a playlist, review the matches and transfer."
    />
  );
}
