import { PlaceholderPage } from '../components/layout/page';

export default function HelpPage() {
  return <PlaceholderPage title="Help" description="Answers to common questions about moving playlists." />;
}
