import { Copy } from 'lucide-react';
import type { LinkDto } from '../../../shared/api/links';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { copyLink } from './copy-link';
import { publicLinkUrl } from './links-api';
import { TargetSummary } from './target-summary';

/** Spec section 2: the link-created view with its status and follower count. */
export function LinkCreatedCard({ link, onCreateAnother }: { link: LinkDto; onCreateAnother: () => void }) {
  const url = publicLinkUrl(link.slug);
  return (
    <Card aria-label="Link created" role="region">
      <CardHeader>
        <CardTitle>Your sniper link is ready</CardTitle>
        <CardDescription>{link.name}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="flex flex-wrap gap-6 text-sm">
          <div>
            <dt className="text-slate-500">Status</dt>
            <dd className="font-semibold text-emerald-700">{link.active ? 'Active' : 'Inactive'}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Followers</dt>
            <dd className="font-semibold text-slate-900" data-testid="created-followers">
              {link.followers}
            </dd>
          </div>
        </dl>
        {link.target ? <TargetSummary target={link.target} /> : null}
        <div className="flex gap-2">
          <Input readOnly value={url} aria-label="Public link" onFocus={(event) => event.target.select()} />
          <Button variant="outline" onClick={() => void copyLink(url)}>
            <Copy aria-hidden="true" className="h-4 w-4" />
            Copy
          </Button>
        </div>
        <div className="flex gap-3">
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className="text-sm text-violet-700 underline"
          >
            Preview the landing page
          </a>
          <Button variant="link" size="sm" className="h-auto px-0" onClick={onCreateAnother}>
            Create another link
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
