import { css } from "lit";

/**
 * Adopted as a constructed stylesheet (no <style> element, no inline styles), so the widget runs under a
 * Content-Security-Policy without 'unsafe-inline'. `all: initial` on the host keeps the page's inherited
 * styles out; custom properties (which `all` leaves alone) and `::part` let the page theme it on purpose:
 * --assent-accent, --assent-background, --assent-foreground, --assent-muted, --assent-border,
 * --assent-focus, --assent-font.
 */
export const styles = css`
  :host {
    all: initial;
    --a: var(--assent-accent, #0f766e);
    --m: var(--assent-muted, #4b5563);
    --l: var(--assent-border, #d1d5db);
  }
  /* A modal <dialog> already sits in the top layer, centred, scrolling, sized to the viewport. */
  dialog {
    width: 40rem;
    padding: 0;
    border: 0;
    border-radius: 14px;
    background: var(--assent-background, #fff);
    color: var(--assent-foreground, #111827);
    font: 15px/1.5 var(--assent-font, system-ui, sans-serif);
    box-shadow: 0 24px 64px #0005;
    animation: in 0.2s ease-out;
  }
  ::backdrop {
    background: #1118278c;
  }
  @keyframes in {
    from {
      opacity: 0;
      translate: 0 12px;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
  header,
  footer,
  .body {
    padding: 1rem 1.5rem 0.5rem;
  }
  header,
  .row {
    display: flex;
    align-items: center;
    gap: 0.75rem;
  }
  h2,
  .row > :first-child {
    flex: 1;
    margin: 0;
  }
  a,
  summary {
    color: var(--a);
  }
  summary,
  h3 {
    font-weight: 600;
  }
  ul {
    list-style: none;
    padding: 0;
  }
  .purpose {
    border: 1px solid var(--l);
    border-radius: 10px;
    padding: 0.75rem 1rem;
    margin-bottom: 0.75rem;
  }
  h3 {
    display: inline;
    margin-right: 0.5rem;
    font-size: 1rem;
  }
  .tag {
    padding: 0 0.5rem;
    border-radius: 9px;
    background: #f3f4f6;
    color: #374151;
    font-size: 0.8rem;
  }
  .new {
    background: #fef3c7;
    color: #78350f;
  }
  small,
  .desc,
  h4 {
    display: block;
    color: var(--m);
  }
  h4 {
    margin: 0.75rem 0 0;
    font-size: 0.85rem;
  }
  .note {
    padding: 0.6rem 0.8rem;
    border-radius: 8px;
    background: #ecfdf5;
    color: #065f46;
  }
  .error {
    background: #fef2f2;
    color: #991b1b;
  }
  .item {
    padding: 0.4rem 0;
    border-top: 1px solid #f3f4f6;
    font-size: 0.9rem;
  }
  [role="switch"] {
    appearance: none;
    flex: none;
    margin: 0;
    width: 2.75rem;
    height: 1.5rem;
    border-radius: 1rem;
    border: 2px solid #6b7280;
    background: #6b7280 radial-gradient(circle, #fff 0.5rem, #0000 calc(0.5rem + 1px)) no-repeat 0 / 1.25rem;
    transition: background-position 0.15s;
  }
  :checked {
    border-color: var(--a);
    background-color: var(--a);
    background-position: 100%;
  }
  button {
    font: inherit;
    font-weight: 600;
    border-radius: 8px;
    border: 2px solid var(--a);
    background: none;
    color: var(--a);
    padding: 0.45rem 0.9rem;
  }
  button,
  summary,
  input {
    cursor: pointer;
  }
  .x {
    border: 0;
    color: var(--m);
    font-size: 1.5rem;
    line-height: 1;
  }
  footer {
    position: sticky;
    bottom: 0;
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr));
    gap: 0.6rem;
    padding-bottom: 1.25rem;
    border-top: 1px solid var(--l);
    background: #f9fafb;
  }
  footer button {
    background: var(--a);
    color: var(--assent-on-accent, #fff);
    padding: 0.65rem;
  }
  :focus-visible {
    outline: 3px solid var(--assent-focus, #1d4ed8);
    outline-offset: 2px;
  }
  .hidden {
    position: absolute;
    clip-path: inset(50%);
  }
  [disabled] {
    opacity: 0.6;
  }
`;
