/** The token the scanner's robots.txt group may name; any other group falls back to `*`. */
export const robotsAgent = "assentscanner";

type Rule = { allow: boolean; pattern: string };

/** A robots.txt pattern (`*` any run, `$` the end) as a test of a path with its query. */
function matcher(pattern: string): (path: string) => boolean {
  const source = pattern
    .replace(/[.+?^{}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\\\$$|\$$/, "$");
  const re = new RegExp(`^${source}`);
  return (path) => re.test(path);
}

/**
 * RFC 9309: the group naming this agent, else `*`; the longest matching rule wins, Allow on a tie; no rule
 * matching, or no robots.txt at all, allows.
 */
export function robotsRules(text: string): (path: string) => boolean {
  const groups = new Map<string, Rule[]>();
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (inRules) (agents = []), (inRules = false);
      agents.push(value.toLowerCase());
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
    } else if (key === "allow" || key === "disallow") {
      inRules = true;
      if (!value) continue;
      for (const agent of agents) groups.get(agent)!.push({ allow: key === "allow", pattern: value });
    }
  }
  const rules = (groups.get(robotsAgent) ?? groups.get("*") ?? []).map((r) => ({ ...r, test: matcher(r.pattern) }));
  return (path) => {
    let best: (typeof rules)[number] | undefined;
    for (const rule of rules) {
      if (!rule.test(path)) continue;
      if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
    }
    return best ? best.allow : true;
  };
}
