/**
 * Click-to-load placeholders for frames gated by hand in the widget's own markup (`<iframe data-assent-purpose="…"
 * data-src="…">`, gating.ts; what the scanner's proposal writes), the blocker's placeholder (blocking/placeholder.ts)
 * drawn by the element. Loaded only when the page has such a frame still held, so pages without one pay nothing.
 *
 * The words (docs/blocking.md#frames-gated-by-hand): a frame of a catalogue embed says what the blocker's says,
 * "Load the video from YouTube: this shares data with Google"; any other frame names its host and the purposes a
 * click consents to, "Load content from player.example.net and consent to Marketing". A click records consent to
 * the frame's purposes (`allow`: a receipt and `assent-change` follow), which loads the frame; the placeholder goes
 * as soon as the frame loads, whatever loaded it (the click, or the purposes approved in the dialog).
 */
import { patternCovers, vendorCovering } from "../../shared/blocking/hosts";
import type { BlockingScriptConfig } from "../../shared/blocking/script-config";
import { vendorById, vendors } from "../../shared/vendors/catalogue";
import type { Vendor } from "../../shared/vendors/types";
import type { AuthSource } from "../../shared/browser/session";
import type { AssentConsent } from "./assent-consent";
import { placeholder, type Label } from "./blocking/placeholder";
import type { ConsentController } from "./controller";

type Entries = BlockingScriptConfig["entries"];

/** Each frame with a placeholder (or one on its way), and what takes the placeholder away. */
const drawn = new Map<HTMLIFrameElement, () => void>();
let listed: Promise<Entries> | undefined;
let configured: Promise<unknown> | undefined;

/**
 * The catalogue embed at `host`: by the project's blocking list when it lists the host (the operator's own mapping;
 * the Worker fills in the catalogue vendor of an entry without one), else by the catalogue's hosts. Empty while the
 * project's blocking is off, so the catalogue decides there.
 */
async function embedAt(host: string, { api, project }: AuthSource): Promise<Vendor | undefined> {
  listed ??= fetch(`${api}/widget/v1/projects/${encodeURIComponent(project)}/blocking.json`)
    .then((answer) => (answer.ok ? answer.json() : { entries: [] }))
    .then((config: { entries: Entries }) => config.entries, () => []);
  const entry = (await listed).find((candidate) => patternCovers(candidate.host, host));
  const vendor = entry ? vendorById.get(entry.vendor ?? "") : vendorCovering(vendors, host);
  return vendor?.embed ? vendor : undefined;
}

/** What the frame's button says: its vendor's words, or its host and the names of its purposes. */
async function labelOf(host: string, purposes: string[], flow: ConsentController): Promise<Label> {
  const vendor = await embedAt(host, flow.host.source);
  if (vendor) return { key: vendor.embed!, values: { v: vendor.name, c: vendor.company } };
  // A returning visitor's decision is known before the configuration (with the purposes' names) has arrived.
  if (!flow.shown.config) await (configured ??= flow.load());
  const names = purposes.map((id) => flow.shown.config?.purposes.find((purpose) => purpose.referenceId === id)?.name ?? id);
  return { key: "content", values: { v: host, p: names.join(", ") } };
}

const forget = (frame: HTMLIFrameElement) => {
  drawn.get(frame)?.();
  drawn.delete(frame);
};

/** A frame the page takes away takes its placeholder with it (its parent may stay, with the placeholder in it). */
let removals: MutationObserver | undefined;

/** Draws a placeholder for every gated frame still held that has none yet. */
export function draw(element: AssentConsent, flow: ConsentController): void {
  removals ??= new MutationObserver(() => {
    for (const frame of drawn.keys()) if (!frame.isConnected) forget(frame);
  });
  removals.observe(document.documentElement, { childList: true, subtree: true });
  for (const frame of document.querySelectorAll<HTMLIFrameElement>("iframe[data-assent-purpose][data-src]")) {
    const purposes = frame.dataset.assentPurpose!.split(/\s+/);
    if (drawn.has(frame) || purposes.every((purpose) => element.hasConsent(purpose))) continue;
    let host: string;
    try {
      host = new URL(frame.dataset.src!, document.baseURI).hostname;
    } catch {
      continue;
    }
    drawn.set(frame, () => {});
    void labelOf(host, purposes, flow).then((label) => {
      // Released or taken away while the words were on their way.
      if (!frame.hasAttribute("data-src") || !frame.isConnected) return drawn.delete(frame);
      // The element's release loads the frame once its purposes are recorded; until then it stays held, as gating
      // promises, and a click whose recording failed can be tried again.
      const remove = placeholder(frame, label, flow.host.source.api, async () => {
        for (const purpose of purposes) {
          if (!element.hasConsent(purpose) && !(await element.allow(purpose).catch(() => false))) return false;
        }
      });
      const released = new MutationObserver(() => frame.hasAttribute("data-src") || forget(frame));
      drawn.set(frame, () => {
        released.disconnect();
        remove();
      });
      released.observe(frame, { attributeFilter: ["data-src"] });
    });
  }
}
