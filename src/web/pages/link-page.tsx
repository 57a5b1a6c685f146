import { PlaceholderPage } from '../components/layout/page';

export default function LinkPage() {
  return (
    <PlaceholderPage title="Sniper Link" description="Create a shareable link for a track or playlist." />
  );
}
