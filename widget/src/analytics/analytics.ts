/**
 * Counting the banner's interactions (docs/analytics.md#what-the-widget-sends), loaded where the bootstrap names
 * `analytics`. It adds nothing to the eager file but its name: it follows the controller it is handed (what it shows,
 * through the host's render, as the GPP chunk does, and its decisions, through its own methods) and queues each
 * interaction; the queue leaves in `navigator.sendBeacon` when the page is hidden or left, fire-and-forget. It reads
 * and writes no storage and no identifier, so it counts a visitor who refuses everything or whose storage is blocked.
 */
import type { ConsentController } from "../controller";
import type { Bootstrap, Purpose } from "../../../shared/browser/types";

type Interaction = "banner_shown" | "accept_all" | "reject_all" | "customised" | "dismissed" | "preferences_reopened" | "withdrawn";
type Counted = { event: Interaction; granted?: string[]; refused?: string[] };

/** The endpoint takes at most this many interactions a report (worker/analytics/schemas.ts). */
const perReport = 10;

/** Controllers already followed: a later bootstrap (another language) hands the same one over again. */
const followed = new WeakMap<ConsentController, { variant?: string }>();

export default function count(flow: ConsentController, boot: Bootstrap) {
  const known = followed.get(flow);
  if (known) {
    known.variant = boot.variant;
    return;
  }
  const served = { variant: boot.variant };
  followed.set(flow, served);
  const queue: Counted[] = [];
  const { api, project } = flow.host.source;

  // Handed over once, when the page is hidden or left (the last moment a page is sure to get); what comes after a
  // return to the page leaves with the next hide. The queue is emptied as it is handed over, so nothing is sent twice.
  const send = (event: Event) => {
    if (event.type === "visibilitychange" && document.visibilityState !== "hidden") return;
    const events = queue.splice(0);
    for (let i = 0; i < events.length; i += perReport) {
      const report = {
        regime: flow.regime,
        language: flow.shown.language,
        path: location.pathname,
        ...(served.variant ? { variant: served.variant } : {}),
        events: events.slice(i, i + perReport),
      };
      try {
        navigator.sendBeacon(`${api}/browser/v1/projects/${encodeURIComponent(project)}/analytics/events`, JSON.stringify(report));
      } catch {
        // Counting never breaks the page.
      }
    }
  };
  addEventListener("visibilitychange", send);
  addEventListener("pagehide", send);

  // What the first layer and the preferences show: a banner coming up, and the preferences opened other than from
  // the banner's Customize (which closes the banner in the same change).
  let banner = "";
  let open = false;
  const follow = () => {
    const shown = flow.shown;
    if (shown.banner === "ask" && banner !== "ask") queue.push({ event: "banner_shown" });
    if (shown.open && !open && banner !== "ask") queue.push({ event: "preferences_reopened" });
    ({ banner, open } = shown);
  };
  follow();
  const render = flow.host.render;
  flow.host.render = () => {
    follow();
    render();
  };

  // The decision's receipt names the variant it was made under (meta.context.variant, docs/proof.md).
  const context = flow.host.context;
  flow.host.context = () => ({ ...context(), ...(served.variant ? { variant: served.variant } : {}) });

  // Decisions: Accept all and Reject all go through setAll, every other save (the preferences' Save, a click-to-load
  // placeholder's one purpose) is a custom choice. Counted once the service confirmed it.
  let path: Interaction | undefined;
  const setAll = flow.setAll.bind(flow);
  flow.setAll = (on) => {
    path = on ? "accept_all" : "reject_all";
    return setAll(on).finally(() => (path = undefined));
  };
  const save = flow.save.bind(flow);
  const consentPurposes = () => flow.shown.config?.purposes.filter((p) => p.legalGround === "consent") ?? [];
  const granted = (p: Purpose) => flow.answered(p) && flow.hasConsent(p.referenceId);
  flow.save = async (choices, purposes = consentPurposes()) => {
    const event = path ?? "customised";
    const before = consentPurposes().filter(granted);
    const saved = await save(choices, purposes);
    if (saved) {
      const ids = (list: Purpose[]) => list.map((p) => p.purposeId);
      queue.push({ event, granted: ids(purposes.filter(granted)), refused: ids(purposes.filter((p) => !granted(p))) });
      const withdrawn = before.filter((p) => !granted(p));
      if (withdrawn.length) queue.push({ event: "withdrawn", refused: ids(withdrawn) });
    }
    return saved;
  };

  const dismiss = flow.dismiss.bind(flow);
  flow.dismiss = () => {
    queue.push({ event: "dismissed" });
    dismiss();
  };
}
