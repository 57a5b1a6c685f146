import { PlaceholderPage } from '../components/layout/page';

export default function OnboardingPage() {
  return (
    <PlaceholderPage
      title="Welcome"
      description="Tell us what you want to do and we will point you the right way."
    />
  );
}
