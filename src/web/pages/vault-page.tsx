import { PlaceholderPage } from '../components/layout/page';

export default function VaultPage() {
  return (
    <PlaceholderPage
      title="Vault+"
      description="Back up your playlists, export them as ZIP and save them to the cloud."
    />
  );
}
