import { describe, expect, it } from "vitest";
import { robotsRules } from "../../scanner/robots";

describe("robots.txt", () => {
  it("applies the * group: the longest match wins, Allow on a tie", () => {
    const allowed = robotsRules("User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nUser-agent: other\nDisallow: /");
    expect(allowed("/")).toBe(true);
    expect(allowed("/private/account")).toBe(false);
    expect(allowed("/private/public/page")).toBe(true);
  });

  it("prefers a group naming the scanner, and reads wildcards and end anchors", () => {
    const allowed = robotsRules("User-agent: *\nDisallow: /\n\nUser-agent: AssentScanner\nDisallow: /*.php$\nDisallow: /tmp");
    expect(allowed("/shop")).toBe(true);
    expect(allowed("/index.php")).toBe(false);
    expect(allowed("/index.php?x=1")).toBe(true);
    expect(allowed("/tmpfile")).toBe(false);
  });

  it("allows everything when nothing applies", () => {
    expect(robotsRules("")("/anything")).toBe(true);
    expect(robotsRules("User-agent: *\nDisallow:\n")("/anything")).toBe(true);
    expect(robotsRules("# only a comment")("/x")).toBe(true);
  });
});
