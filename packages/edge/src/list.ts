import { ttlCache } from "../../../shared/ttl-cache";
import type { EdgeOptions, PageBlocking } from "./types";

/** How long a fetched list is used before it is revalidated: the service's own `max-age` for it. */
const freshFor = 60_000;
/** How long a list is still used when the service cannot be reached. */
const staleFor = 24 * 60 * 60_000;

/** Each list as last fetched, kept while it may still stand in for an unreachable service. */
const known = ttlCache<{ list: PageBlocking; etag: string | null; fetched: number }>(staleFor, 100);

/**
 * The project's list from the service, kept in the isolate for a minute and then revalidated with its ETag. When
 * the service cannot answer, the last list is used for up to a day; with none, null (the page then passes ungated,
 * and the blocker, if the page has it, still holds back what scripts create).
 */
export async function pageBlocking({ service, project }: EdgeOptions): Promise<PageBlocking | null> {
  const at = Date.now();
  const url = `${service.replace(/\/+$/, "")}/widget/v1/projects/${encodeURIComponent(project)}/blocking.json`;
  const last = known.get(url);
  if (last && at - last.fetched < freshFor) return last.list;
  try {
    const answer = await fetch(url, { headers: last?.etag ? { "if-none-match": last.etag } : {} });
    if (answer.status === 304 && last) {
      known.set(url, { ...last, fetched: at });
      return last.list;
    }
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    const list = (await answer.json()) as PageBlocking;
    known.set(url, { list, etag: answer.headers.get("etag"), fetched: at });
    return list;
  } catch (error) {
    console.error(`Assent edge: the blocking list could not be fetched (${error instanceof Error ? error.message : error})`);
    return last?.list ?? null;
  }
}
