/**
 * The eager stylesheet: the host, the colours, buttons and the first layer. Adopted as a constructed stylesheet
 * (no <style> element, no inline styles), so the widget runs under a Content-Security-Policy without
 * 'unsafe-inline'. `all: initial` on the host keeps the page's inherited styles out and resets the font size to
 * the browser's own (the visitor's setting), and every size is in `em` against that, never `rem`, so a page's root
 * font size (`html { font-size: 62.5% }`) cannot shrink it. A host that forces its own size on every element
 * (`* { font-size: 3px !important }` beats `all: initial`) is clamped: the layers are never under 16px, the
 * browsers' default, so their smallest text (0.75em) stays at 12px; a larger setting still applies. Custom properties (which `all` leaves alone) and
 * `::part` let the page theme it on purpose: --assent-accent, --assent-on-accent, --assent-background,
 * --assent-foreground, --assent-muted, --assent-border, --assent-focus, --assent-font. Without a theme it follows
 * `prefers-color-scheme`. The colours only the second layer uses (muted text, subtle surfaces) are defined with it.
 */
export const styles = `
  :host {
    all: initial;
    --a: var(--assent-accent, #0f766e);
    --o: var(--assent-on-accent, #fff);
    --b: var(--assent-background, #fff);
    --f: var(--assent-foreground, #111827);
    --l: var(--assent-border, #d1d5db);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --a: var(--assent-accent, #5eead4);
      --o: var(--assent-on-accent, #042f2e);
      --b: var(--assent-background, #111827);
      --f: var(--assent-foreground, #f9fafb);
      --l: var(--assent-border, #4b5563);
    }
  }
  .banner {
    box-sizing: border-box;
    border: 0;
    padding: 0;
    background: var(--b);
    color: var(--f);
    font: max(1em, 16px)/1.5 var(--assent-font, system-ui, sans-serif);
    overflow-wrap: anywhere;
    /* A popover in the top layer: above any z-index, outside any transformed ancestor, out of the page's flow. */
    position: fixed;
    inset: auto 0 0;
    margin: 0;
    width: auto;
    max-height: 85vh;
    overflow: auto;
    border-block-start: 1px solid var(--l);
    box-shadow: 0 -0.5em 2em #0003;
    animation: in 0.2s ease-out;
  }
  .inner {
    max-width: 64em;
    margin: 0 auto;
    padding: 1em 1.5em;
  }
  .title {
    margin: 0;
    font-size: 1.125em;
  }
  p {
    margin: 0.5em 0;
  }
  /*
   * It fades in: painted first at opacity 0, the banner is never a candidate for the page's largest contentful
   * paint. Under reduced motion it only fades.
   */
  @keyframes in {
    from {
      translate: 0 1em;
      opacity: 0;
    }
  }
  @keyframes fade {
    from {
      opacity: 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation-name: fade !important;
      transition: none !important;
    }
  }
  /* Phones: a bottom sheet, buttons one under another, full width. */
  @media (max-width: 40em) {
    .banner {
      border-radius: 1em 1em 0 0;
    }
    .inner {
      padding: 1em;
    }
  }
  .actions {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 10em), 1fr));
    gap: 0.6em;
    margin-block-start: 0.75em;
  }
  a,
  .link {
    color: var(--a);
  }
  button {
    box-sizing: border-box;
    min-width: 24px;
    min-height: 24px;
    font: inherit;
    font-weight: 600;
    border-radius: 0.5em;
    border: 2px solid var(--a);
    background: none;
    color: var(--a);
    padding: 0.45em 0.9em;
    cursor: pointer;
  }
  .actions button {
    background: var(--a);
    color: var(--o);
    padding: 0.65em;
  }
  /* A banner variant's button style (docs/analytics.md#how-a-variant-is-served): outlined, or underlined text. */
  [data-buttons=secondary] button,
  [data-buttons=link] button {
    background: none;
    color: var(--a);
  }
  [data-buttons=link] button {
    border-color: #0000;
    text-decoration: underline;
  }
  .link {
    border: 0;
    padding: 0;
    text-decoration: underline;
  }
  /* Notes keep their own light colours in either scheme: text and background always go together. */
  .note {
    padding: 0.6em 0.8em;
    border-radius: 0.5em;
    background: #ecfdf5;
    color: #065f46;
  }
  .error {
    background: #fef2f2;
    color: #991b1b;
  }
  .note .link {
    color: inherit;
  }
  :focus-visible {
    outline: 3px solid var(--assent-focus, #1d4ed8);
    outline-offset: 2px;
  }
  /* The banner takes focus to be found, not operated: its controls show focus, the container does not. */
  .banner:focus {
    outline: 0;
  }
  .hidden {
    position: absolute;
    clip-path: inset(50%);
  }
  [disabled] {
    opacity: 0.6;
  }
`;

/** Adds a constructed stylesheet to a shadow root (a Content-Security-Policy without 'unsafe-inline' allows it). */
export function adopt(root: ShadowRoot, css: string) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
