import type { ServiceId } from '../../shared/services';
import type { TestClient } from './test-server';

/**
 * Edits made as the person makes them in the services' own apps: the emulators' playlist pages (issue 21
 * item 4), whose forms carry the page session's token. Apple Music's API cannot remove a track from a
 * playlist, its page can: a two-way sync's tests remove songs on the Apple side through it.
 */

export interface PageForm {
  action: string;
  button: string;
  /** The text of what the button's `aria-describedby` names: the song it acts on. */
  subject: string;
  fields: URLSearchParams;
}

const decode = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');

/** The forms of a page, as a browser sees them. */
export function formsOf(html: string): PageForm[] {
  const texts = new Map(
    [...html.matchAll(/<span id="([^"]+)">([^<]*)<\/span>/g)].map((match) => [
      match[1],
      decode(match[2] ?? ''),
    ]),
  );
  return [...html.matchAll(/<form class="inline" method="post" action="([^"]+)">(.*?)<\/form>/g)].map(
    (match) => {
      const body = match[2] ?? '';
      const fields = new URLSearchParams();
      for (const input of body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        fields.set(input[1] ?? '', decode(input[2] ?? ''));
      const button = /<button[^>]*aria-describedby="([^"]+)"[^>]*>([^<]+)<\/button>/.exec(body);
      return {
        action: decode(match[1] ?? ''),
        button: button?.[2] ?? '',
        subject: texts.get(button?.[1] ?? '') ?? '',
        fields,
      };
    },
  );
}

export const playlistPagePath = (service: ServiceId, id: string) =>
  service === 'spotify'
    ? `/sandbox/spotify/api/open/playlist/${id}`
    : `/sandbox/apple/web/library/playlist/${id}`;

/**
 * Submits a page's form from the page itself (same origin) and answers the page's answer (303 when done);
 * `headers` replace what a browser would send (another origin, say).
 */
export function submitForm(client: TestClient, form: PageForm, headers: Record<string, string> = {}) {
  return client.send('POST', form.action, undefined, {
    raw: form.fields.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: client.baseUrl, ...headers },
    skipCsrf: true,
  });
}

/** Presses "Remove" on the first row of the playlist page that shows this song's title. */
export async function removeOnPage(
  client: TestClient,
  service: ServiceId,
  playlistId: string,
  title: string,
): Promise<void> {
  const page = await client.get(playlistPagePath(service, playlistId));
  const form = formsOf(page.text).find((item) => item.button === 'Remove' && item.subject === title);
  if (!form) throw new Error(`no "Remove" for ${title} on the ${service} page`);
  const { status } = await submitForm(client, form);
  if (status !== 303) throw new Error(`"Remove" answered ${status}`);
}
