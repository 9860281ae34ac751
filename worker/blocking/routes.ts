import type { Context } from "hono";
import { vendors } from "../../shared/vendors/catalogue";
import type { AppEnv } from "../env";
import { access } from "../auth/scopes";
import { isConstraintError } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { checkAgainstProject, hostOf, readBlockingList, saveBlockingList } from "./queries";
import { BlockingList, VendorList } from "./schemas";
import { vendorView } from "./vendors";

/** A project's blocking list, mounted at `/admin/v1/projects/{project_id}/blocking`. */
export const blockingRoutes = createRouter();

const tags = ["Blocking"];

blockingRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getBlockingList",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's blocking list",
    description: "A project that never set one answers `{ enabled: false, entries: [] }`.",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(BlockingList, "The list."), ...problems },
  }),
  async (c) => {
    const list = await readBlockingList(c.var.db, c.req.valid("param").project_id);
    if (!list) throw notFound("Project");
    return c.json(list, 200);
  },
);

/** The hosts the service itself answers on: where the widget loads from, which no entry may block. */
const serviceHosts = (c: Context<AppEnv>) =>
  [...new Set([c.req.url, c.env.ISSUER].flatMap((url) => (url ? (hostOf(url) ?? []) : [])))];

blockingRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updateBlockingList",
    tags,
    ...access.operator("blocking:write"),
    summary: "Replace the project's blocking list",
    description:
      "Up to 500 entries, each host once. 400 `validation_failed` for a host that is not a lowercase host name or " +
      "`*.` wildcard (`invalid_host`), a public suffix of the Public Suffix List alone or under `*.` (`public_suffix`: " +
      "`*.com` would hold back every site), a host listed twice (`duplicate_host`) or an unknown vendor id (`unknown_vendor`); " +
      "400 `blocks_own_origin` for a host or wildcard covering the service's own host (the widget's) or a host of the " +
      "project's web clients' `allowedOrigins`; 400 `unknown_purpose` for a purpose the project does not have. A refused " +
      "list changes nothing.",
    request: { params: ProjectParams, body: jsonBody(BlockingList) },
    responses: { 200: jsonResponse(BlockingList, "The stored list."), ...problems },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const list = c.req.valid("json");
    if (!(await checkAgainstProject(c.var.db, projectId, list, serviceHosts(c)))) throw notFound("Project");
    try {
      await saveBlockingList(c.var.db, projectId, list);
    } catch (error) {
      // The project was deleted between the check and the write.
      if (isConstraintError(error, "FOREIGN KEY")) throw notFound("Project");
      throw error;
    }
    return c.json(list, 200);
  },
);

/** The vendor catalogue for the operator (the portal's picker), mounted at `/admin/v1`. */
export const vendorAdminRoutes = createRouter();

const listVendors = (c: Context<AppEnv>) => c.json({ vendors: vendors.map(vendorView) }, 200, { "Cache-Control": "public, max-age=3600" });

vendorAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/vendors",
    operationId: "listVendors",
    tags,
    ...access.operator("projects:read"),
    summary: "List the vendor catalogue",
    description: "What the portal's vendor picker offers: each vendor's hosts, cookies, default purpose, Consent Mode types and consent call.",
    responses: { 200: jsonResponse(VendorList, "The catalogue."), ...problems },
  }),
  listVendors,
);

/** The same catalogue for anyone: it is public data (shared/vendors in the repository), so reading it needs no credential. */
export const vendorPublicRoutes = createRouter();

vendorPublicRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/vendors",
    operationId: "listVendorsPublic",
    tags,
    ...access.public,
    summary: "List the vendor catalogue (public)",
    description: "The catalogue `GET /admin/v1/vendors` serves, without a credential: it holds nothing but the repository's own data.",
    responses: { 200: jsonResponse(VendorList, "The catalogue.") },
  }),
  listVendors,
);
