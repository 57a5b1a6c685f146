import { Archive, CalendarClock, CloudUpload, RotateCcw } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { paths } from '../../lib/paths';

const BENEFITS = [
  {
    icon: CalendarClock,
    title: 'Daily backups',
    text: 'Every day Crossfade saves a copy of each playlist on your connected services, with every track.',
  },
  {
    icon: RotateCcw,
    title: 'Restore any playlist',
    text: 'Deleted a playlist by mistake, or a service lost it? Restore it from any backup, to Spotify or Apple Music.',
  },
  {
    icon: Archive,
    title: 'ZIP export',
    text: 'Download a playlist as a ZIP with CSV, JSON and cover artwork.',
  },
  {
    icon: CloudUpload,
    title: 'Cloud save',
    text: 'Keep exports in Crossfade storage and download them again from My Account.',
  },
];

/** What Vault+ offers, for people on another plan (or signed out). */
export function VaultOffer({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="grid gap-6">
      <ul className="grid gap-4 sm:grid-cols-2">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title}>
            <Card className="h-full">
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <benefit.icon aria-hidden="true" className="h-5 w-5 text-violet-700" />
                  {benefit.title}
                </CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-sm text-slate-700">{benefit.text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <Link href={paths.pricing} className={buttonClasses('primary')}>
          See plans and pricing
        </Link>
        {signedIn ? null : (
          <Link href={paths.auth} className={buttonClasses('outline')}>
            Sign in
          </Link>
        )}
      </div>
    </div>
  );
}
