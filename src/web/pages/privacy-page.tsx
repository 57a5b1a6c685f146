import { PlaceholderPage } from '../components/layout/page';

export default function PrivacyPage() {
  return <PlaceholderPage title="Privacy Policy" description="How Crossfade handles your data." />;
}
