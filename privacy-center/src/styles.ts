import { css } from "lit";

/** Themeable through `--assent-*` custom properties (the project's theme sets them on the element). */
export const styles = css`
  :host {
    display: block;
    font-family: var(--assent-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    color: var(--assent-text, #1c1e26);
    --accent: var(--assent-accent, #2f45c5);
    --surface: var(--assent-surface, #fff);
    --muted: var(--assent-muted, #5a5f73);
    --radius: var(--assent-radius, 10px);
    max-width: 760px;
    margin: 0 auto;
    padding: 16px;
    box-sizing: border-box;
    line-height: 1.5;
  }
  h1 { font-size: 1.6rem; margin: 0.2em 0; }
  h2 { font-size: 1.15rem; margin: 0 0 0.5em; }
  section { background: var(--surface); border-radius: var(--radius); padding: 16px 18px; margin: 14px 0; box-shadow: 0 1px 3px rgb(0 0 0 / 12%); }
  p { margin: 0.4em 0; }
  .muted { color: var(--muted); font-size: 0.92rem; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { padding: 8px 0; border-top: 1px solid rgb(0 0 0 / 8%); }
  li:first-child { border-top: 0; }
  .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; justify-content: space-between; }
  .aliases { margin-bottom: 10px; }
  .aliases li { border-top: 0; padding: 2px 0; overflow-wrap: anywhere; }
  code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 0.88rem; color: var(--muted); }
  .badge { display: inline-block; border-radius: 999px; padding: 1px 10px; font-size: 0.85rem; background: #e8ebf8; }
  .ok { background: #dff3e4; color: #14532d; }
  .bad { background: #fde2e1; color: #7f1d1d; }
  label { display: block; margin: 8px 0 4px; font-weight: 600; }
  input[type="email"], input[type="tel"], input[type="text"] {
    font: inherit; padding: 10px 12px; border: 1px solid #9aa0b4; border-radius: 8px; width: 100%; box-sizing: border-box; max-width: 360px;
  }
  fieldset { border: 0; padding: 0; margin: 8px 0; }
  legend { font-weight: 600; margin-bottom: 4px; }
  .choice { display: flex; gap: 8px; align-items: flex-start; font-weight: 400; margin: 6px 0; }
  .choice input { margin-top: 4px; }
  button {
    font: inherit; font-weight: 600; border: 0; border-radius: 8px; padding: 10px 16px; margin-top: 10px; cursor: pointer;
    background: var(--accent); color: var(--assent-on-accent, #fff); min-height: 44px;
  }
  button.secondary { background: transparent; color: var(--accent); border: 2px solid var(--accent); }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  a { color: var(--accent); }
  [role="alert"] { color: #7f1d1d; background: #fde2e1; border-radius: 8px; padding: 8px 12px; margin-top: 10px; }
  [role="status"] { color: #14532d; }
`;
