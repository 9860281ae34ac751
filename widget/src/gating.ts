/**
 * Script and iframe gating: `<script type="text/plain" data-assent-purpose="a b">` runs, and
 * `<iframe data-assent-purpose="a" data-src="…">` loads, once every purpose it names may be used.
 * A gated script's `nonce` is carried over, so gated inline scripts also work under a nonce-based
 * Content-Security-Policy.
 */
export function release(allowed: (purposeReferenceId: string) => boolean, root: ParentNode = document): void {
  const gated = root.querySelectorAll<HTMLScriptElement | HTMLIFrameElement>(
    "script[type='text/plain'][data-assent-purpose],iframe[data-assent-purpose][data-src]",
  );
  for (const element of gated) {
    if (!element.dataset.assentPurpose!.split(/\s+/).every(allowed)) continue;
    if (element instanceof HTMLIFrameElement) {
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
}
