import { Page } from '../components/layout/page';
import { GeoLockPanel } from '../features/geo-lock';

export default function GeoLockPage() {
  return (
    <Page
      title="Geo-Lock Bypass"
      description="Find alternatives for tracks that are unavailable in a region."
      width="normal"
    >
      <GeoLockPanel />
    </Page>
  );
}
