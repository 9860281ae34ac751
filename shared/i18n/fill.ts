/**
 * Fills a translated sentence's one-letter placeholders (`{c}`, `{v}`, `{o}`…) from `values`, in one pass: a value
 * that itself reads like a placeholder (a project named "{o}") stays as written. A placeholder without a value stays.
 */
export const fillIn = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w)\}/g, (whole, key: string) => values[key] ?? whole);
