// The crawl's options as the CLI and the Worker get them when they name none, and which links it follows: plain Node.
import { describe, expect, it } from "vitest";
import { pageToFollow, scanSettings } from "../../scanner/crawl";

describe("scan options", () => {
  it("visits up to 20 pages, four at a time, with the documented limits, when no option is given", () => {
    expect(scanSettings({})).toEqual({ maxPages: 20, concurrency: 4, limits: { pageTimeoutMs: 15_000, settleMs: 1_500, maxBytes: 10 * 1024 * 1024 } });
    expect(scanSettings({ maxPages: 3, settleMs: 500 })).toMatchObject({ maxPages: 3, limits: { settleMs: 500 } });
  });
});

describe("links the crawl follows", () => {
  const start = new URL("https://www.shop.example/");
  const follow = (link: string, mayFollow?: (url: URL) => boolean) => pageToFollow(link, start, mayFollow);

  it("follows same-site pages on other subdomains, without their fragment", () => {
    expect(follow("https://www.shop.example/about#team")).toBe("https://www.shop.example/about");
    expect(follow("https://shop.example/cart")).toBe("https://shop.example/cart");
    expect(follow("https://blog.shop.example/post")).toBe("https://blog.shop.example/post");
  });

  it("leaves other sites, other schemes and downloads", () => {
    expect(follow("https://elsewhere.example/")).toBeNull();
    expect(follow("https://shop.example.evil.example/")).toBeNull();
    expect(follow("mailto:shop@shop.example")).toBeNull();
    expect(follow("https://www.shop.example/brochure.pdf")).toBeNull();
  });

  it("asks mayFollow before a page on another origin of the site (the Worker's registered origins)", () => {
    const registered = new Set(["https://www.shop.example", "https://shop.example"]);
    const mayFollow = (url: URL) => registered.has(url.origin);
    expect(follow("https://shop.example/cart", mayFollow)).toBe("https://shop.example/cart");
    expect(follow("https://blog.shop.example/post", mayFollow)).toBeNull();
  });
});
