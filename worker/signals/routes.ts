import { z } from "@hono/zod-openapi";
import { access } from "../auth/scopes";
import { regimes } from "../jurisdictions/rules";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse } from "../lib/schemas";
import { signalEffects, signalsInForce } from "../../shared/signals/signals";

/** What the service honours, for browsers and crawlers, mounted at `/.well-known`. */
export const wellKnownRoutes = createRouter();

const tags = ["Browser tokens"];
/** Public, cacheable for a day, readable from any origin. */
const publicHeaders = { "Cache-Control": "public, max-age=86400", "Access-Control-Allow-Origin": "*" };

const GpcSupport = z
  .object({ gpc: z.literal(true), lastUpdate: z.string().openapi({ example: "2026-11-23" }) })
  .openapi("GpcSupport");

wellKnownRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/gpc.json",
    operationId: "getGpcSupport",
    tags,
    ...access.public,
    summary: "Global Privacy Control support resource",
    description:
      "Declares that this service honours GPC (https://privacycg.github.io/gpc-spec/): `Sec-GPC: 1` under an opt-out " +
      "regime records an opt-out of sale and sharing (see the bootstrap).",
    responses: { 200: jsonResponse(GpcSupport, "GPC is supported.") },
  }),
  (c) => c.json({ gpc: true as const, lastUpdate: "2026-11-23" }, 200, publicHeaders),
);

const SignalSupport = z
  .object({
    signals: z.array(
      z.object({
        name: z.string().openapi({ example: "gpc" }),
        title: z.string(),
        spec: z.string(),
        header: z.string().openapi({ example: "sec-gpc" }),
        value: z.string(),
        effects: z.partialRecord(z.enum(regimes), z.enum(signalEffects)).openapi({ description: "What the signal does under each regime." }),
      }),
    ),
  })
  .openapi("SignalSupport");

wellKnownRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/privacy-signals.json",
    operationId: "getSignalSupport",
    tags,
    ...access.public,
    summary: "Every browser privacy signal the service honours, and what it does under each regime",
    description: "The table of shared/signals/signals.ts as served: a signal is recorded in `meta.context.signals` of every request it came with.",
    responses: { 200: jsonResponse(SignalSupport, "The signals.") },
  }),
  (c) =>
    c.json(
      { signals: signalsInForce(c.env).map(({ name, title, spec, header, value, effects }) => ({ name, title, spec, header, value, effects })) },
      200,
      publicHeaders,
    ),
);
