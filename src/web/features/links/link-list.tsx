import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { LinkDto } from '../../../shared/api/links';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { copyLink } from './copy-link';
import {
  formatRate,
  LINKS_KEY,
  linkStatsKey,
  linksQuery,
  publicLinkUrl,
  useSetLinkActive,
} from './links-api';

const LinkStatsChart = lazy(() => import('./link-stats-chart'));

function LinkRow({ link }: { link: LinkDto }) {
  const queryClient = useQueryClient();
  const [showStats, setShowStats] = useState(false);
  const toggle = useSetLinkActive(link.id);
  const setActive = (active: boolean) =>
    toggle.mutate(active, {
      onError: (error) =>
        toast({
          title: 'Could not change the link',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  const url = publicLinkUrl(link.slug);
  const switchId = `link-active-${link.id}`;
  return (
    <li className="grid gap-3 border-t border-slate-200 py-4 first:border-t-0" aria-label={link.name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">{link.name}</p>
          <p className="truncate text-sm text-slate-600">
            {link.target
              ? `${link.target.title}${link.target.artists[0] ? ` · ${link.target.artists[0]}` : ''}`
              : url}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={switchId}
            checked={link.active}
            disabled={toggle.isPending}
            onCheckedChange={setActive}
          />
          <label htmlFor={switchId} className="text-sm text-slate-700">
            {link.active ? 'Active' : 'Off'}
          </label>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-slate-500">Views</dt>
          <dd className="text-lg font-semibold text-slate-900">{link.views}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Followers</dt>
          <dd className="text-lg font-semibold text-slate-900">{link.followers}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Signup rate</dt>
          <dd className="text-lg font-semibold text-slate-900">{formatRate(link.signupRate)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copyLink(url)}>
          Copy link
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={showStats}
          onClick={() => {
            if (!showStats) void queryClient.invalidateQueries({ queryKey: linkStatsKey(link.id) });
            setShowStats(!showStats);
          }}
        >
          {showStats ? 'Hide stats' : 'Show stats'}
        </Button>
      </div>
      {showStats ? (
        <Suspense fallback={<Spinner label="Loading statistics" />}>
          <LinkStatsChart linkId={link.id} />
        </Suspense>
      ) : null}
    </li>
  );
}

/** The owner's links with their real counts; refreshed on demand since counts change elsewhere. */
export function LinkList() {
  const queryClient = useQueryClient();
  const links = useQuery(linksQuery());
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Your links</CardTitle>
        <Button
          variant="outline"
          size="sm"
          disabled={links.isFetching}
          onClick={() => void queryClient.invalidateQueries({ queryKey: LINKS_KEY })}
        >
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {links.isPending ? (
          <Spinner label="Loading your links" />
        ) : links.isError ? (
          <p className="text-sm text-red-700">{serverMessage(links.error) ?? 'Could not load your links.'}</p>
        ) : links.data.length === 0 ? (
          <p className="text-sm text-slate-600">No links yet. Create your first one above.</p>
        ) : (
          <ul aria-label="Your links">
            {links.data.map((link) => (
              <LinkRow key={link.id} link={link} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
