/** What a project's pages hold back, as `GET {service}/widget/v1/projects/{project_id}/blocking.json` answers it. */
export type PageBlocking = {
  /** The service's origin. */
  api: string;
  project: string;
  /** Host patterns (`cdn.example.com`, `*.example.com`) with the purpose each waits for and its catalogue vendor. */
  entries: { host: string; purpose: string; vendor: string | null }[];
};

/** Where the edge finds the project's list. */
export type EdgeOptions = {
  /** The Assent service's origin, e.g. `https://assent.example.com`. */
  service: string;
  project: string;
  /** Put the project's blocker first in `<head>` (default true), so the page need not name it. */
  blocker?: boolean;
};
