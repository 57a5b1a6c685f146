import { PlaceholderPage } from '../components/layout/page';

export default function CompletePage() {
  return (
    <PlaceholderPage
      title="Transfer Complete"
      description="See the result of your transfer and download it as CSV."
    />
  );
}
