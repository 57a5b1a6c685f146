import { Info, Network, RefreshCw } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useAuth } from '../../hooks/use-auth';
import { paths } from '../../lib/paths';
import { track } from '../../lib/track';
import { ExportPanel } from '../export';
import { GeoLockPanel } from '../geo-lock';
import { FriendMergePanel } from '../merge';
import { TasteGraphCard } from './taste-graph-card';
import { TasteTimelineCard } from './taste-timeline-card';

export const VISUALIZATION_TABS = [
  { value: 'taste-graph', label: 'Taste Graph' },
  { value: 'taste-timeline', label: 'Taste Timeline' },
  { value: 'export-options', label: 'Export Options' },
  { value: 'friend-merge', label: 'Friend Merge' },
  { value: 'geo-lock', label: 'Geo-Lock' },
] as const;

export const SAMPLE_BANNER_TEXT =
  'Showing sample data: connect Spotify or Apple Music to see your own library';

/** The /visualizations page body (spec section 2): five tabs, then Coming Soon. */
export function VisualizationsView() {
  const { status, isLoading } = useAuth();
  const showingSample = !isLoading && !status.spotifyConnected && !status.appleConnected;
  // `?tab=export-options`: where a cloud drive's consent page sends the person back to.
  const asked = new URLSearchParams(useSearch()).get('tab');
  const initialTab = VISUALIZATION_TABS.find((tab) => tab.value === asked)?.value ?? 'taste-graph';

  return (
    <div className="space-y-10">
      {showingSample ? (
        <div className="flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950">
          <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <p>
            {SAMPLE_BANNER_TEXT} (
            <Link href={paths.transfer} className="font-semibold underline underline-offset-2">
              connect a service
            </Link>
            ).
          </p>
        </div>
      ) : null}

      <Tabs
        defaultValue={initialTab}
        onValueChange={(value) => track('visualization_viewed', { visualization_type: value })}
      >
        <TabsList aria-label="Features" className="h-auto w-full flex-wrap">
          {VISUALIZATION_TABS.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value}>
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="taste-graph">
          <TasteGraphCard />
        </TabsContent>
        <TabsContent value="taste-timeline">
          <TasteTimelineCard />
        </TabsContent>
        <TabsContent value="export-options">
          <ExportPanel />
        </TabsContent>
        <TabsContent value="friend-merge">
          <FriendMergePanel />
        </TabsContent>
        <TabsContent value="geo-lock">
          <GeoLockPanel />
        </TabsContent>
      </Tabs>

      <ComingSoon />
    </div>
  );
}

const COMING_SOON = [
  {
    title: 'Multi-Service Sync',
    description: 'Keep a playlist in step on Spotify and Apple Music automatically.',
    Icon: RefreshCw,
  },
  {
    title: 'Social Graph',
    description: 'See how your taste connects with your friends’ libraries.',
    Icon: Network,
  },
];

function ComingSoon() {
  return (
    <section aria-labelledby="coming-soon-heading" className="space-y-4">
      <h2 id="coming-soon-heading" className="text-xl font-semibold text-slate-900">
        Coming Soon
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {COMING_SOON.map(({ title, description, Icon }) => (
          <li key={title}>
            <Card aria-disabled="true" className="h-full cursor-not-allowed bg-slate-50 opacity-70">
              <CardHeader>
                <div className="flex items-center justify-between gap-2">
                  <CardTitle as="h3" className="flex items-center gap-2 text-base">
                    <Icon aria-hidden="true" className="h-4 w-4" />
                    {title}
                  </CardTitle>
                  <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
                    Coming soon
                  </span>
                </div>
                <CardDescription>{description}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
