import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { authorize, type AccessDeclaration } from "./authorize";
import type { AppEnv } from "../env";
import { bodyLimitExtension, jsonBodies, jsonOrPlainTextBodies, limitBody, maxBodyBytes } from "../lib/body";
import { validationError } from "../lib/errors";
import { requestExample } from "../lib/request-examples";

const targets = { query: "query", param: "path", header: "header" } as const;

/** A capability's router: validation failures become 400 problems with field paths. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw validationError(result.error, targets[result.target as keyof typeof targets]);
      }
    },
  });
}

type Declared = RouteConfig & AccessDeclaration & { [bodyLimitExtension]?: number };

/**
 * A route as every capability defines it (`router.openapi(defineRoute({...}), handler)`): its `middleware` runs the
 * access check its own declaration describes (worker/auth/scopes.ts), then reads its JSON body (after
 * authentication, so no unauthenticated body is read), before the route's own middleware and zod-openapi's
 * validators. Its request body gets its example from worker/lib/request-examples.ts in the OpenAPI document; its
 * limit is `maxBodyBytes` unless it declares `[bodyLimitExtension]`.
 */
export function defineRoute<const R extends Declared>(route: R) {
  const own = route.middleware === undefined ? [] : [route.middleware].flat();
  const content = route.request?.body?.content;
  const bodyTypes = Object.keys(content ?? {});
  const maxSize = route[bodyLimitExtension] ?? maxBodyBytes;
  const bodyReader = bodyTypes.some((type) => type.includes("form"))
    ? [limitBody(maxSize)]
    : [bodyTypes.includes("text/plain") ? jsonOrPlainTextBodies(maxSize) : jsonBodies(maxSize)];
  const middleware: MiddlewareHandler<AppEnv>[] = [authorize(route), ...bodyReader, ...(own as MiddlewareHandler<AppEnv>[])];
  const request =
    content === undefined
      ? route.request
      : {
          ...route.request,
          body: {
            ...route.request!.body!,
            content: Object.fromEntries(
              Object.entries(content).map(([type, media]) => [
                type,
                { ...media, example: (media as { example?: unknown }).example ?? requestExample(route.operationId ?? "", type) },
              ]),
            ),
          },
        };
  return createRoute({ ...route, request, middleware }) as Omit<R, "middleware"> & { middleware: MiddlewareHandler<AppEnv>[] };
}
