import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { badRequest, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { now } from "../lib/time";
import { uiStrings } from "./table";
import { canonicalTag, maxStringLength, shippedTag, shippedTags, wordingErrors, wordingIn } from "./words";

export const wordingRoutes = createRouter();

const tags = ["Configuration"];
const LanguageParams = ProjectParams.extend({ language: z.string().max(35).openapi({ example: "de" }) });
const tagSyntax = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const Strings = z.record(z.string(), z.string()).openapi({ example: { acceptAll: "Alle annehmen", title: "Datenschutz bei {c}" } });

const WordingLanguage = z
  .object({
    language: z.string().openapi({ description: "BCP 47, canonical case.", example: "de" }),
    shipped: z.boolean().openapi({ description: "The widget ships this language; otherwise the project added it." }),
    overrides: Strings.openapi({ description: "The project's own strings, by key (empty: the shipped words)." }),
    strings: Strings.openapi({
      description: "Every string as the widget shows it: English, under the shipped language, under the overrides; with the TCF layers' words as `tcf.<key>`.",
    }),
    defaults: Strings.openapi({ description: "Every string as the widget would show it without the overrides, the TCF layers' words included." }),
    updated: z.string().nullable(),
  })
  .openapi("UiStringsLanguage");

const WordingInput = z
  .strictObject({
    strings: Strings.openapi({
      description:
        `Replaces the project's strings for this language. Keys from GET …/ui-strings/en; each text 1-${maxStringLength} ` +
        "characters, keeping the English placeholders (`{c}`: the controller's name, or a number) exactly. A language the widget " +
        "does not ship needs every key but the `tcf.` ones. The `tcf.` keys are the IAB TCF layers' own words (the " +
        "number of vendors, the note on objecting, the vendor list, a retention, special purposes and features), sent " +
        "only to pages where they are set; IAB's names of purposes, features and stacks have no key: the TCF Policies " +
        "(Appendix A) let no one reword them.",
    }),
  })
  .openapi("UiStringsInput");

type Row = { language: string; strings: Record<string, string>; updated: string };

/** One language as the API shows it: the project's overrides, the words with and without them. */
const languageView = (language: string, row?: Row) => ({
  language,
  shipped: !!shippedTag(language),
  overrides: row?.strings ?? {},
  strings: wordingIn(language, row ? [row] : []),
  defaults: wordingIn(language, []),
  updated: row?.updated ?? null,
});

const columns = { language: uiStrings.language, strings: uiStrings.strings, updated: uiStrings.updated };

wordingRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listUiStrings",
    ...access.project("config:read"),
    tags,
    summary: "List the widget's languages and the project's wording",
    description: "The languages the widget ships, and every language the project has its own strings for (overrides of a shipped language, or a language it added).",
    request: { params: ProjectParams },
    responses: {
      200: jsonResponse(
        z.object({ shippedLanguages: z.array(z.string()), items: z.array(WordingLanguage.omit({ strings: true, defaults: true })) }),
        "The languages.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const rows = await getDb(c.var.db)
      .select(columns)
      .from(uiStrings)
      .where(eq(uiStrings.projectId, c.get("caller").projectId))
      .orderBy(uiStrings.language);
    const items = rows.map((row) => {
      const { strings: _everything, defaults: _shipped, ...item } = languageView(row.language, row);
      return item;
    });
    return c.json({ shippedLanguages: shippedTags, items }, 200);
  },
);

wordingRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{language}",
    operationId: "getUiStrings",
    ...access.project("config:read"),
    tags,
    summary: "Read the widget's strings in one language",
    description: "The project's overrides and every string as the widget shows it. 404 for a language neither shipped nor added.",
    request: { params: LanguageParams },
    responses: { 200: jsonResponse(WordingLanguage, "The language."), ...problems },
  }),
  async (c) => {
    const language = canonicalTag(c.req.valid("param").language);
    const [row] = await getDb(c.var.db)
      .select(columns)
      .from(uiStrings)
      .where(and(eq(uiStrings.projectId, c.get("caller").projectId), eq(uiStrings.language, language)));
    if (!row && !shippedTag(language)) throw notFound("Language");
    return c.json(languageView(language, row), 200);
  },
);

wordingRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{language}",
    operationId: "putUiStrings",
    ...access.project("config:write"),
    tags,
    summary: "Set the project's wording of the widget in one language",
    description:
      "Overrides any of the widget's strings in a shipped language, or adds a language the widget does not ship " +
      "(every string needed). The widget shows it from the next bootstrap on (the edge cache is keyed by the " +
      "configuration version, which this bumps). Errors: 400 `validation_failed` with `unknown_string_key`, " +
      "`invalid_length`, `placeholder_mismatch` or `required` per string, or `invalid_language_tag` for the path.",
    request: { params: LanguageParams, body: jsonBody(WordingInput) },
    responses: { 200: jsonResponse(WordingLanguage, "The language as the widget now shows it."), ...problems },
  }),
  async (c) => {
    const given = c.req.valid("param").language;
    if (!tagSyntax.test(given)) {
      throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", [
        { path: "path.language", code: "invalid_language_tag", message: "A BCP 47 language tag, such as de or pt-BR." },
      ]);
    }
    const language = canonicalTag(given);
    const { strings } = c.req.valid("json");
    const errors = wordingErrors(language, strings);
    if (errors.length) throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", errors.slice(0, 50));
    const row = { projectId: c.get("caller").projectId, language, strings, updated: now() };
    await getDb(c.var.db)
      .insert(uiStrings)
      .values(row)
      .onConflictDoUpdate({ target: [uiStrings.projectId, uiStrings.language], set: { strings, updated: row.updated } });
    return c.json(languageView(language, row), 200);
  },
);

wordingRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{language}",
    operationId: "deleteUiStrings",
    ...access.project("config:write"),
    tags,
    summary: "Remove the project's wording in one language",
    description: "Back to the shipped words (an added language is gone).",
    request: { params: LanguageParams },
    responses: { 204: { description: "Removed." }, ...problems },
  }),
  async (c) => {
    const projectId = c.get("caller").projectId;
    const [row] = await getDb(c.var.db)
      .delete(uiStrings)
      .where(and(eq(uiStrings.projectId, projectId), eq(uiStrings.language, canonicalTag(c.req.valid("param").language))))
      .returning({ language: uiStrings.language });
    if (!row) throw notFound("Wording for this language");
    return c.body(null, 204);
  },
);
