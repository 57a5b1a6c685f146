import { PlaceholderPage } from '../components/layout/page';

export default function PricingPage() {
  return <PlaceholderPage title="Pricing" description="Free, Pro and Vault+ plans." />;
}
