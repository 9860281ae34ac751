// A shop-like site for the scanner's tests and benchmark, served locally. Chromium resolves every *.localhost name to
// the loopback, so one server is the shop (localhost), an ad network (ads.localhost) and a video host
// (video.localhost): real third parties to the browser. Pages carry trackers named as real ones name their cookies.
import { createServer } from "node:http";

const html = (body, head = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${head}</head><body>${body}</body></html>`;

/**
 * The shop: `/` links to the products, about and blog pages, a page robots.txt disallows and a missing page. Every
 * page runs the shop's own analytics (ungated: fires before consent), the ad network's pixel (ungated, third party)
 * and its ad frame, a gated heatmap (`data-assent-purpose="analytics"`) and the video iframe; once `useAssent` names
 * the service and project (the project needs the site's origin first), the real widget too. `/` sets the session
 * and load-balancer cookies a shop's server sets (essential). What a browser keeps of all this, and what a passive
 * scan can see, is written down in scan-fixture-truth.json. `/regime/opt-out` and `/regime/notice` (linked from
 * nowhere) show the widget as those regimes do: a banner with OK and "Your privacy choices".
 */
export async function startScanFixture({ extraPages = 0 } = {}) {
  let port = 0;
  let assent = null;
  /** How many times each of the shop's pages was asked for, by path. */
  const loads = new Map();
  const at = (host) => `http://${host}:${port}`;
  const products = Array.from({ length: extraPages }, (_, i) => `/products/${i + 1}`);
  const nav = ["/", "/products", "/about", "/blog", "/private/account", "/missing", ...products]
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(" ");
  const shopPage = (title, regime = "opt-in") => {
    const widget = assent ? `<script type="module" src="${assent.base}/widget/assent.js"></script>` : "";
    const banner = assent ? `<assent-consent project="${assent.projectId}" regime="${regime}"></assent-consent>` : "";
    return html(
      `<h1>${title}</h1><nav>${nav} <a href="https://elsewhere.example/">elsewhere</a> <a href="/brochure.pdf">brochure</a></nav>
      <script src="/js/analytics.js"></script>
      <script src="${at("ads.localhost")}/pixel.js"></script>
      <script type="text/plain" data-assent-purpose="analytics" src="/js/heatmap.js"></script>
      <iframe src="${at("video.localhost")}/embed" title="video"></iframe>
      <iframe src="${at("ads.localhost")}/frame" title="advertisement"></iframe>
      ${banner}`,
      widget,
    );
  };
  const routes = {
    localhost: {
      "/robots.txt": () => ["text/plain", "User-agent: *\nDisallow: /private/\n"],
      "/": () => [
        "text/html",
        shopPage("Shop"),
        {
          "set-cookie": [
            "XSRF-TOKEN=t0k3n; Path=/; SameSite=Strict",
            "shop_cart=empty; Path=/; HttpOnly",
            // The server's session and its load balancer's stickiness: the database's Functional, strictly necessary.
            "PHPSESSID=s3ss10n; Path=/; HttpOnly; SameSite=Lax",
            "AWSALB=b4l4nc3; Path=/; Max-Age=604800",
          ],
        },
      ],
      "/regime/opt-out": () => ["text/html", shopPage("Opt-out", "opt-out")],
      "/regime/notice": () => ["text/html", shopPage("Notice", "notice")],
      "/products": () => ["text/html", shopPage("Products")],
      "/about": () => ["text/html", shopPage("About")],
      "/blog": () => ["text/html", shopPage("Blog")],
      ...Object.fromEntries(products.map((path) => [path, () => ["text/html", shopPage(`Product ${path.split("/").pop()}`)]])),
      "/private/account": () => ["text/html", shopPage("Account")],
      "/js/analytics.js": () => [
        "text/javascript",
        // A returning visitor (the key from an earlier load is there) gets a user id: only a second load sets it.
        `if (localStorage.getItem("ajs_anonymous_id")) localStorage.setItem("ajs_user_id", "returning");
         indexedDB.open("ga_db");
         document.cookie = "_ga=GA1.1.1234.5678; path=/; max-age=63072000";
         document.cookie = "_ga_ABC123=GS1.1.1; path=/; max-age=63072000";
         localStorage.setItem("ajs_anonymous_id", "a1");
         sessionStorage.setItem("shop_last_page", location.pathname);`,
      ],
      "/js/heatmap.js": () => [
        "text/javascript",
        `document.cookie = "_hjSessionUser_1=abc; path=/; max-age=31536000";
         localStorage.setItem("_hjSession_1", "{}");
         navigator.sendBeacon("${at("ads.localhost")}/heatmap-beacon", "x");`,
      ],
    },
    "ads.localhost": {
      "/pixel.js": () => [
        "text/javascript",
        `document.cookie = "_fbp=fb.1.1234.5678; path=/; max-age=7776000";
         navigator.sendBeacon("${at("ads.localhost")}/collect", "event=PageView");
         new Image().src = "${at("ads.localhost")}/tr.gif";`,
      ],
      "/collect": () => ["text/plain", ""],
      "/heatmap-beacon": () => ["text/plain", ""],
      // A third-party cookie: Chromium's Playwright contexts refuse it (as incognito windows do), a visitor's browser
      // keeps it. The two after it no browser keeps in a third-party response: no SameSite (so Lax), and
      // SameSite=None without Secure.
      "/tr.gif": () => [
        "image/gif",
        Buffer.from("R0lGODlhAQABAAAAACw=", "base64"),
        { "set-cookie": ["IDE=AHWqTUk; Max-Age=33696000; Path=/x; Secure; SameSite=None", "px_lax=1; Max-Age=86400; Path=/", "px_nosec=1; Max-Age=86400; Path=/; SameSite=None"] },
      ],
      // The ad frame's own script writes cookies (one a visitor's browser keeps, one it refuses) and a storage key.
      "/frame": () => [
        "text/html",
        html(`<p>ad</p><script>
          document.cookie = "ad_frame_uid=u1; path=/; max-age=31536000; SameSite=None; Secure";
          document.cookie = "ad_frame_lax=1; path=/; max-age=31536000";
          try { localStorage.setItem("ad_frame_seen", "1"); } catch {}
        </script>`),
      ],
    },
    "video.localhost": {
      "/embed": () => ["text/html", html(`<p>video</p>`)],
    },
  };
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (host === "localhost") loads.set(path, (loads.get(path) ?? 0) + 1);
    const route = routes[host]?.[path];
    if (!route) return res.writeHead(404, { "content-type": "text/html" }).end(html("<h1>Not found</h1>"));
    const [type, body, headers = {}] = route();
    res.writeHead(200, { "content-type": `${type}; charset=utf-8`, ...headers }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
  return {
    origin: at("localhost"),
    at,
    useAssent: (service) => void (assent = service),
    loads: (path) => loads.get(path) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * One site on several origins and its neighbours, for the links the crawl follows and the navigations it refuses:
 * `shop.localhost` links to `blog.shop.localhost` (the same site), `other.localhost` (another site), `/moved`
 * (a redirect to `internal.localhost`, the host a guard refuses) and `/calm`. `hosts` lists each host asked.
 */
export async function startSiteFixture() {
  let port = 0;
  const at = (host) => `http://${host}:${port}`;
  const hosts = [];
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hosts.push(host);
    const page = (body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(body));
    if (host === "shop.localhost" && path === "/") {
      return page(["/moved", "/calm", at("blog.shop.localhost") + "/", at("other.localhost") + "/"].map((href) => `<a href="${href}">${href}</a>`).join(" "));
    }
    if (host === "shop.localhost" && path === "/moved") return res.writeHead(302, { location: `${at("internal.localhost")}/admin` }).end();
    if (path === "/robots.txt") return res.writeHead(404).end();
    return page(`<p>${host}${path}</p>`);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
  return { origin: at("shop.localhost"), at, hosts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Pages that fight the crawler, linked from `/`: a redirect loop, a page whose load never ends, 50 MB of HTML, a
 * window.open storm, an alert loop and an endless scroll, beside a calm page that must still be scanned.
 */
export async function startHostileFixture() {
  const hostile = ["/loop", "/never-settles", "/huge", "/popups", "/alerts", "/endless", "/calm"];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const page = (body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(body));
    switch (path) {
      case "/":
        return page(hostile.map((href) => `<a href="${href}">${href}</a>`).join(" "));
      case "/loop":
        return res.writeHead(302, { location: "/loop-again" }).end();
      case "/loop-again":
        return res.writeHead(302, { location: "/loop" }).end();
      case "/never-settles":
        return page(`<p>loading</p><img src="/hang.png">`);
      case "/hang.png":
        return; // never answered: the page's load event never fires
      case "/huge": {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const chunk = `<p>${"x".repeat(1024 * 1024 - 7)}</p>`;
        let sent = 0;
        const more = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(chunk)) return void res.once("drain", more);
          }
          res.end();
        };
        res.on("close", () => (sent = 50));
        return more();
      }
      case "/popups":
        return page(`<script>for (let i = 0; i < 50; i++) window.open("/calm?popup=" + i, "_blank");</script>`);
      case "/alerts":
        return page(`<script>for (let i = 0; i < 20; i++) alert("hi " + i); setInterval(() => alert("again"), 50);</script>`);
      case "/endless":
        return page(`<div id="feed"></div><script>
          const feed = document.getElementById("feed");
          const grow = () => { for (let i = 0; i < 20; i++) { const p = document.createElement("p"); p.style.height = "200px"; p.textContent = "item"; feed.append(p); } };
          grow(); addEventListener("scroll", grow);
        </script>`);
      case "/calm":
        return page(`<p>calm</p><script>document.cookie = "_ga=GA1.1.1; path=/"</script>`);
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://localhost:${server.address().port}`;
  return {
    origin,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
