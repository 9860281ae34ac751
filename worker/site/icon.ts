import { raw } from "hono/html";

/** The service's mark (the portal's brand mark): every page links it as `iconPath` (worker/site/routes.ts serves it). */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f45c5"/>' +
  '<path d="M9 16.5l4.5 4.5L23 11.5" stroke="#fff" stroke-width="3.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';
export const iconPath = "/favicon.svg";
export const iconLink = raw(`<link rel="icon" href="${iconPath}" type="image/svg+xml">`);
