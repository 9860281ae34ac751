/**
 * Reads a Google Tag Manager template file (`template.tpl`) as Tag Manager's template editor exports it: sections
 * headed `___NAME___`, JSON in INFO, TEMPLATE_PARAMETERS and WEB_PERMISSIONS, the sandboxed code as text, and the
 * TESTS section's scenarios (YAML: `scenarios:` then `- name:` with a `code: |-` block).
 */
import { readFileSync } from "node:fs";

export type Parameter = {
  type: string;
  name: string;
  defaultValue?: unknown;
  valueValidators?: { type: string; args?: unknown[] }[];
  paramTableColumns?: { param: Parameter }[];
  selectItems?: { value: string }[];
  subParams?: Parameter[];
};

/** The grants of WEB_PERMISSIONS, decoded to plain values per permission's public id. */
export type Permissions = Record<string, Record<string, unknown>>;

export type Scenario = { name: string; code: string };

export type Template = {
  info: { type: string; containerContexts: string[]; displayName: string; brand: { id: string; thumbnail?: string } };
  parameters: Parameter[];
  code: string;
  permissions: Permissions;
  scenarios: Scenario[];
  notes: string;
  sections: string[];
};

/**
 * Permission values are typed trees: 1 a string, 2 a list, 3 a map (keys in `mapKey`, values in `mapValue`),
 * 8 a boolean.
 */
type Value = { type: number; string?: string; boolean?: boolean; listItem?: Value[]; mapKey?: Value[]; mapValue?: Value[] };

function decode(value: Value): unknown {
  switch (value.type) {
    case 1:
      return value.string;
    case 2:
      return (value.listItem ?? []).map(decode);
    case 3:
      return Object.fromEntries((value.mapKey ?? []).map((key, index) => [key.string, decode(value.mapValue![index])]));
    case 8:
      return value.boolean;
    default:
      throw new Error(`A permission value of unknown type ${value.type}.`);
  }
}

type Grant = { instance: { key: { publicId: string }; param?: { key: string; value: Value }[] } };

export const decodePermissions = (grants: Grant[]): Permissions =>
  Object.fromEntries(grants.map(({ instance }) => [instance.key.publicId, Object.fromEntries((instance.param ?? []).map((p) => [p.key, decode(p.value)]))]));

/** The scenarios of a TESTS section: each `- name:` and its `code: |-` block, indentation removed. */
export function parseScenarios(section: string): Scenario[] {
  const scenarios: Scenario[] = [];
  const lines = section.split("\n");
  if (lines[0]?.trim() && lines[0].trim() !== "scenarios:") throw new Error(`The TESTS section starts with "${lines[0]}", not "scenarios:".`);
  for (let i = 1; i < lines.length; i++) {
    const name = /^- name: (.+)$/.exec(lines[i]);
    if (!name) continue;
    if (lines[i + 1]?.trim() !== "code: |-") throw new Error(`Scenario "${name[1]}" has no "code: |-" block.`);
    const body: string[] = [];
    for (i += 2; i < lines.length && (lines[i].startsWith("    ") || lines[i].trim() === ""); i++) body.push(lines[i].slice(4));
    i--;
    scenarios.push({ name: name[1], code: body.join("\n").trim() });
  }
  return scenarios;
}

export function readTemplate(path: string): Template {
  const text = readFileSync(path, "utf8").replace(/\r\n/g, "\n");
  const parts = text.split(/^___([A-Z_]+)___$/m);
  const sections: Record<string, string> = {};
  for (let i = 1; i < parts.length; i += 2) sections[parts[i]] = parts[i + 1].trim();
  return {
    info: JSON.parse(sections.INFO),
    parameters: JSON.parse(sections.TEMPLATE_PARAMETERS),
    code: sections.SANDBOXED_JS_FOR_WEB_TEMPLATE,
    permissions: decodePermissions(JSON.parse(sections.WEB_PERMISSIONS)),
    scenarios: sections.TESTS ? parseScenarios(sections.TESTS) : [],
    notes: sections.NOTES ?? "",
    sections: Object.keys(sections),
  };
}
