import { isNotNull, sql } from "drizzle-orm";
import type { Env } from "../env";
import { bindingNamed, databaseNames } from "../lib/databases";
import { getDb } from "../lib/db";
import { projects } from "../projects/table";
import { logger, masked } from "../lib/logger";
import { gvlLanguages } from "../../shared/tcf/gvl-languages";
import { atpUrl, compressed, gvlBaseUrl, keepVersion, keptVersion, newestVersion, parseAtpCsv, PurposesTranslation, VendorList, type AtpList } from "./lists";
import { tcfRefreshes } from "./table";

/**
 * The cron job keeping the hosted lists current (docs/tcf.md#the-hosted-lists). IAB Europe publishes the GVL weekly,
 * on Thursdays at 17:00 Brussels time, and CMPs must serve their own copy (TCF Policies, Appendix B, "Global Vendor
 * List"): each list is fetched once after each publication, and a failed fetch is retried hourly. A failure keeps
 * the last good version, records `failing_since` (the operator's counter `tcfListFailingSeconds`, rule
 * `tcf_lists_failing`: an `ops.alert`), and never stores what it fetched.
 */

type Fetcher = (url: string, init?: RequestInit) => Promise<Response>;

/** What a fetched document becomes: a version to keep, or nothing new. Throws when the document is broken. */
type Reading = { version: number; json: string; replace?: boolean } | "unchanged";

type Source = {
  /** The refresh's name in `tcf_refreshes`, and the list it keeps in `tcf_lists`. */
  list: string;
  url: (env: Env) => string;
  read: (text: string, d1: D1Database, fetched: string) => Promise<Reading>;
};

const gvlSource: Source = {
  list: "gvl",
  url: (env) => `${gvlBaseUrl(env)}vendor-list.json`,
  async read(text, d1) {
    const parsed = VendorList.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`not a GVL v3: ${describeIssue(parsed.error.issues[0])}`);
    const version = parsed.data.vendorListVersion;
    const newest = (await newestVersion(d1, "gvl")) ?? 0;
    if (version < newest) throw new Error(`vendorListVersion ${version} is older than the kept ${newest}`);
    return version === newest ? "unchanged" : { version, json: text };
  },
};

/** A language's translation is kept under the GVL version it was fetched with (a correction of the same week replaces it). */
const translationSource = (lang: string): Source => ({
  list: `purposes-${lang}`,
  url: (env) => `${gvlBaseUrl(env)}purposes-${lang}.json`,
  async read(text, d1) {
    const parsed = PurposesTranslation.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`not a GVL translation: ${describeIssue(parsed.error.issues[0])}`);
    const version = await newestVersion(d1, "gvl");
    if (version === undefined) throw new Error("no GVL kept to translate");
    return { version, json: text, replace: true };
  },
});

const atpSource: Source = {
  list: "atp",
  url: atpUrl,
  async read(text, d1, fetched) {
    const providers = parseAtpCsv(text);
    const kept = await keptVersion(d1, "atp");
    if (kept && JSON.stringify((JSON.parse(kept.json) as AtpList).providers) === JSON.stringify(providers)) return "unchanged";
    const version = (kept?.version ?? 0) + 1;
    return { version, json: JSON.stringify({ version, lastUpdated: fetched, providers } satisfies AtpList) };
  },
};

/** Every list, the GVL first (its translations are kept under its version). */
export const tcfSources: readonly Source[] = [gvlSource, atpSource, ...gvlLanguages.map(translationSource)];

/** At most this many fetches per run: a Worker invocation has a bounded number of subrequests; the next minute goes on. */
export const fetchesPerRun = 10;
const hour = 3_600_000;
/** Larger than any list IAB or Google publishes (the GVL is about a megabyte): a bigger answer is not one of them. */
const maxBytes = 16 * 1024 * 1024;
const fetchTimeoutMs = 30_000;

/** The latest weekly publication at or before `asOf`: Thursday 16:00 UTC, which is after 17:00 Brussels time in winter and summer. */
export function lastPublication(asOf: number): number {
  const day = new Date(asOf);
  const thursday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 3) % 7), 16);
  return thursday <= asOf ? thursday : thursday - 7 * 24 * hour;
}

const describeIssue = (issue: { path: PropertyKey[]; message: string } | undefined) =>
  issue ? `${issue.path.map(String).join(".") || "(document)"}: ${issue.message}` : "invalid";

async function fetchText(fetcher: Fetcher, url: string): Promise<string> {
  const response = await fetcher(url, { signal: AbortSignal.timeout(fetchTimeoutMs), headers: { accept: "application/json, text/csv" } });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) throw new Error(`more than ${maxBytes} bytes from ${url}`);
  const text = await response.text();
  if (text.length > maxBytes) throw new Error(`more than ${maxBytes} bytes from ${url}`);
  return text;
}

/** Whether a project of any database has TCF on: only then does a page read the lists. */
export async function tcfInUse(env: Env): Promise<boolean> {
  for (const name of databaseNames(env)) {
    const [row] = await getDb(bindingNamed(env, name))
      .select({ id: projects.id })
      .from(projects)
      .where(sql`json_extract(${projects.tcf}, '$.enabled') = 1`)
      .limit(1);
    if (row) return true;
  }
  return false;
}

/**
 * Fetches the lists due as of `asOf` (never checked since the last publication, or failing and last tried an hour
 * ago), at most `fetchesPerRun`, and keeps each good new version. Answers how many lists it tried. `needed` is asked
 * once something is due: when it says no, nothing is fetched and the failures recorded are forgotten, so a deployment
 * without TCF (an offline `npm start`) neither reaches IAB nor raises `tcf_lists_failing`, and a project turning TCF
 * on later gets the failed lists tried at once.
 */
export async function refreshLists(env: Env, asOf: number, fetcher: Fetcher, needed: () => Promise<boolean> = async () => true): Promise<number> {
  const db = getDb(env.DB);
  const refreshes = new Map((await db.select().from(tcfRefreshes)).map((row) => [row.source, row]));
  const published = lastPublication(asOf);
  const due = tcfSources.filter(({ list }) => {
    const last = refreshes.get(list);
    if (!last) return true;
    const checked = Date.parse(last.checked);
    return checked < published || (last.failingSince !== null && asOf - checked >= hour);
  });
  if (due.length === 0) return 0;
  if (!(await needed())) {
    await db.delete(tcfRefreshes).where(isNotNull(tcfRefreshes.failingSince));
    return 0;
  }
  let gvlKept = (await newestVersion(env.DB, "gvl")) !== undefined;
  let tried = 0;
  for (const source of due) {
    if (tried === fetchesPerRun) break;
    if (source.list.startsWith("purposes-") && !gvlKept) continue;
    tried++;
    const checked = new Date(asOf).toISOString();
    try {
      const reading = await source.read(await fetchText(fetcher, source.url(env)), env.DB, checked);
      const kept =
        reading === "unchanged"
          ? []
          : [keepVersion(env.DB, { list: source.list, version: reading.version, body: await compressed(reading.json), fetched: checked }, reading.replace)];
      await db.batch([
        ...kept,
        db
          .insert(tcfRefreshes)
          .values({ source: source.list, checked, failingSince: null, error: null })
          .onConflictDoUpdate({ target: tcfRefreshes.source, set: { checked, failingSince: null, error: null } }),
      ] as never);
      if (source === gvlSource) gvlKept = true;
    } catch (error) {
      logger.error("tcf_list_refresh_failed", { job: "refreshTcfLists", code: source.list }, error);
      const reason = masked(error instanceof Error ? error.message : String(error));
      await db
        .insert(tcfRefreshes)
        .values({ source: source.list, checked, failingSince: checked, error: reason })
        .onConflictDoUpdate({
          target: tcfRefreshes.source,
          set: { checked, failingSince: sql`coalesce(${tcfRefreshes.failingSince}, ${checked})`, error: reason },
        });
    }
  }
  return tried;
}


/** The cron's job: the lists from their publishers, where a project has TCF on (the tests call `refreshLists` with a fetch of their own). */
export const refreshTcfLists = (env: Env, asOf: number = Date.now()) => refreshLists(env, asOf, fetch, () => tcfInUse(env));

/** The lists fetched now, for a project turning TCF on before the cron has fetched them (worker/tcf/routes.ts). */
export const fetchListsNow = (env: Env) => refreshLists(env, Date.now(), fetch);
