/** The second layer's stylesheet, loaded with it (see styles.ts for the rules every size and colour follows). */
export const preferenceStyles = `
  :host {
    --m: var(--assent-muted, #4b5563);
    --s: #f3f4f6;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --m: var(--assent-muted, #d1d5db);
      --s: #1f2937;
    }
  }
  /* A modal <dialog> already sits in the top layer, centred, scrolling, sized to the viewport. */
  dialog {
    box-sizing: border-box;
    border: 0;
    padding: 0;
    background: var(--b);
    color: var(--f);
    font: max(1em, 16px)/1.5 var(--assent-font, system-ui, sans-serif);
    overflow-wrap: anywhere;
    width: 40em;
    max-width: calc(100% - 1em);
    border-radius: 0.875em;
    box-shadow: 0 1.5em 4em #0005;
    animation: in 0.2s ease-out;
  }
  /* The dialog's only: a popover has a ::backdrop too, and the first layer must never dim the page. */
  dialog::backdrop {
    background: #1118278c;
  }
  .head,
  .foot,
  .body {
    padding: 1em 1.5em 0.5em;
  }
  .head,
  .row {
    display: flex;
    align-items: center;
    gap: 0.75em;
  }
  .head > :first-child,
  .row > :first-child {
    flex: 1;
    min-width: 0;
    margin: 0;
  }
  summary,
  h3 {
    font-weight: 600;
    color: var(--a);
  }
  h3 {
    display: inline;
    margin-inline-end: 0.5em;
    font-size: 1em;
    color: inherit;
  }
  summary {
    cursor: pointer;
  }
  ul {
    list-style: none;
    padding: 0;
  }
  .purpose {
    border: 1px solid var(--l);
    border-radius: 0.625em;
    padding: 0.75em 1em;
    margin-block-end: 0.75em;
  }
  .tag {
    padding: 0 0.5em;
    border-radius: 0.5em;
    background: var(--s);
    color: var(--f);
    font-size: 0.8em;
  }
  /* A party's role, inside the smaller party rows: never below 12 px. */
  .item .tag {
    font-size: 0.875em;
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
    margin: 0.75em 0 0;
    font-size: 0.875em;
  }
  .item {
    padding: 0.4em 0;
    border-block-start: 1px solid var(--s);
    font-size: 0.9em;
  }
  [role="switch"] {
    appearance: none;
    flex: none;
    box-sizing: border-box;
    margin: 0;
    width: 2.75em;
    height: 1.5em;
    min-height: 24px;
    border-radius: 1em;
    border: 2px solid #6b7280;
    background: #6b7280 radial-gradient(circle, #fff 0.5em, #0000 calc(0.5em + 1px)) no-repeat 0 / 1.25em;
    transition: background-position 0.15s;
    cursor: pointer;
  }
  :checked {
    border-color: var(--a);
    background-color: var(--a);
    background-position: 100%;
  }
  [dir="rtl"] [role="switch"] {
    background-position: 100%;
  }
  [dir="rtl"] :checked {
    background-position: 0;
  }
  /* Forced colours drop backgrounds: draw the switch with system colours, the state in both colour and knob side. */
  @media (forced-colors: active) {
    [role="switch"] {
      forced-color-adjust: none;
      border-color: CanvasText;
      background-color: Canvas;
      background-image: radial-gradient(circle, CanvasText 0.5em, #0000 calc(0.5em + 1px));
    }
    :checked {
      border-color: Highlight;
      background-color: Highlight;
      background-image: radial-gradient(circle, HighlightText 0.5em, #0000 calc(0.5em + 1px));
    }
  }
  .x {
    border: 0;
    color: var(--m);
    font-size: 1.5em;
    line-height: 1;
  }
  .foot {
    position: sticky;
    bottom: 0;
    margin: 0;
    padding-block-end: 1.25em;
    border-block-start: 1px solid var(--l);
    background: var(--b);
  }
  /* The footer's buttons, laid out and coloured as the banner's (styles.ts, .actions). */
  .foot {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 10em), 1fr));
    gap: 0.6em;
  }
  .foot button {
    background: var(--a);
    color: var(--o);
    padding: 0.65em;
  }
`;
