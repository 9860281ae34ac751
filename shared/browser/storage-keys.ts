/**
 * What Assent keeps in a browser's storage, per API and project, under one name for every script that reads it: the
 * visitor key (shared/browser/session.ts writes it; the privacy center checks for it), and beside it, under the same
 * name and `:` and what each holds, the widget's decision and a refusal still waiting for the service (localStorage)
 * and a dismissed banner (sessionStorage): widget/src/store.ts writes them, the blocker reads the first two before
 * the widget loads.
 */
export const storageKey = (api: string, project: string) => `assent:${api}:${project}`;
