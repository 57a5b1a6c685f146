import { PlaceholderPage } from '../components/layout/page';

export default function MatchesPage() {
  return (
    <PlaceholderPage
      title="Match Songs"
      description="Review how each track matches on the destination service."
    />
  );
}
