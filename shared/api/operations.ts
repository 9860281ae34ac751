/**
 * The API's operations as types, read from the generated shared/api/openapi.d.ts (`npm run generate:api`): what a
 * path takes and answers, per method. The portal's and the tests' openapi-fetch clients take `paths` whole; the
 * widget's own small client and the resource types use the helpers below. Types only: nothing here exists at run time.
 */
import type { components, paths } from "./openapi";

export type { components, paths };
export type Schemas = components["schemas"];

export type Method = "GET" | "PUT" | "POST" | "DELETE";

type Operation<P extends keyof paths, M extends Method> = paths[P][Lowercase<M>];

/** The paths (as templates, `{project_id}` and all) that take `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: Operation<P, M> extends { responses: unknown } ? P : never;
}[keyof paths];

/** The JSON body an operation takes. */
export type JsonBody<P extends keyof paths, M extends Method> = Operation<P, M> extends {
  requestBody?: { content: { "application/json": infer T } };
}
  ? T
  : never;

type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : never;

/** What a successful (2xx) answer of the operation carries as JSON. */
export type JsonAnswer<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : never }[keyof R]
  : never;

