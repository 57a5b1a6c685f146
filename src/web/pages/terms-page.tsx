import { PlaceholderPage } from '../components/layout/page';

export default function TermsPage() {
  return (
    <PlaceholderPage title="Terms of Service" description="The terms that apply when you use Crossfade." />
  );
}
