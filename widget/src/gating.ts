/**
 * Script and iframe gating: `<script type="text/plain" data-assent-purpose="a b">` runs, and
 * `<iframe data-assent-purpose="a" data-src="…">` loads, once every purpose it names may be used. A gated
 * script's `nonce` is carried over, so gated inline scripts also work under a nonce-based Content-Security-Policy.
 * Elements added to the page later are watched for and released as soon as their purposes allow.
 */
const selector = "script[type='text/plain'][data-assent-purpose],iframe[data-assent-purpose][data-src]";

type Allowed = (purposeReferenceId: string) => boolean;

/**
 * Releases what may be used now; true when a gated frame is still held (the element then draws its click-to-load
 * placeholder, gated-frames.ts).
 */
export function release(allowed: Allowed): boolean {
  let frameHeld = false;
  for (const element of document.querySelectorAll<HTMLScriptElement | HTMLIFrameElement>(selector)) {
    const frame = element instanceof HTMLIFrameElement;
    if (!element.dataset.assentPurpose!.split(/\s+/).every(allowed)) {
      frameHeld ||= frame;
      continue;
    }
    if (frame) {
      element.src = element.dataset.src!;
      element.removeAttribute("data-src");
      continue;
    }
    const script = document.createElement("script");
    for (const { name, value } of element.attributes) if (name !== "type") script.setAttribute(name, value);
    script.nonce = element.nonce;
    script.text = element.text;
    element.replaceWith(script);
  }
  return frameHeld;
}

/**
 * Releases gated elements added after the last decision, and calls `frameHeld` while a gated frame stays held;
 * returns the observer's stop. Each batch of changes runs one `release` (a querySelectorAll) rather than inspecting
 * the records: the same result, in fewer eager bytes.
 */
export function watch(allowed: Allowed, frameHeld: () => void): () => void {
  const observer = new MutationObserver(() => release(allowed) && frameHeld());
  observer.observe(document.documentElement, { childList: true, subtree: true });
  return () => observer.disconnect();
}
