import { PlaceholderPage } from '../components/layout/page';

export default function GeoLockPage() {
  return (
    <PlaceholderPage
      title="Geo-Lock Bypass"
      description="Find alternatives for tracks that are unavailable in a region."
    />
  );
}
