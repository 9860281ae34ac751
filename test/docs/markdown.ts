// Just enough Markdown to check links the way GitHub renders them: prose outside code, headings and their slugs.
import { readFileSync } from "node:fs";

/** The text with fenced code blocks and inline code spans blanked, so nothing quoted as code counts as a link. */
export function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/**
 * GitHub's anchor for a heading: the rendered text (links as their text, no emphasis or code marks) lowercased,
 * punctuation dropped, each space a hyphen; a repeated slug gets -1, -2 and so on.
 */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (outside code) and explicit `id`/`name` attributes. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(heading);
    let candidate = base;
    for (let n = 1; found.has(candidate); n++) candidate = `${base}-${n}`;
    found.add(candidate);
  }
  for (const [, id] of text.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/g)) found.add(id);
  return found;
}

/** The link targets of a Markdown file's prose: inline links and images, and reference definitions. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...definitions];
}

export const read = (path: string) => readFileSync(path, "utf8");
