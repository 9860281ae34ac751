// The project's own audit page: the vendors' snippets exactly as their documentation publishes them (real host names,
// answered by vendor-standin.ts), then every pattern of issue 36 that once reached a vendor before consent. Race-prone
// patterns run 20 times in the one page load. The last script sets `__patternsDone` once every pattern has had its
// turn (the late insertions included).

/** The project's list: the catalogue's hosts with their vendors, and a manual tracker host. */
export const auditEntries = [
  { host: "www.googletagmanager.com", purpose: "analytics", source: "catalogue", vendor: "google-tag-manager" },
  { host: "*.google-analytics.com", purpose: "analytics", source: "catalogue", vendor: "google-analytics" },
  { host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
  { host: "www.facebook.com", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
  { host: "*.hotjar.com", purpose: "analytics", source: "catalogue", vendor: "hotjar" },
  { host: "*.clarity.ms", purpose: "analytics", source: "catalogue", vendor: "microsoft-clarity" },
  { host: "snap.licdn.com", purpose: "marketing", source: "catalogue", vendor: "linkedin-insight" },
  { host: "px.ads.linkedin.com", purpose: "marketing", source: "catalogue", vendor: "linkedin-insight" },
  { host: "analytics.tiktok.com", purpose: "marketing", source: "catalogue", vendor: "tiktok-pixel" },
  { host: "www.youtube.com", purpose: "marketing", source: "catalogue", vendor: "youtube" },
  { host: "player.vimeo.com", purpose: "analytics", source: "catalogue", vendor: "vimeo" },
  { host: "maps.googleapis.com", purpose: "marketing", source: "catalogue", vendor: "google-maps" },
  { host: "www.google.com/maps/embed", purpose: "marketing", source: "catalogue", vendor: "google-maps" },
  { host: "cdn.tracker.example", purpose: "marketing", source: "manual" },
];

export const snippets = {
  gtmHead: `<!-- Google Tag Manager -->
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-TEST123');</script>
<!-- End Google Tag Manager -->`,
  gtmBody: `<!-- Google Tag Manager (noscript) -->
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-TEST123"
height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Google Tag Manager (noscript) -->`,
  ga4: `<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST12345"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', 'G-TEST12345');
</script>`,
  meta: `<!-- Meta Pixel Code -->
<script>
!function(f,b,e,v,n,t,s)
{if(f.fbq)return;n=f.fbq=function(){n.callMethod?
n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
n.queue=[];t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];
s.parentNode.insertBefore(t,s)}(window, document,'script',
'https://connect.facebook.net/en_US/fbevents.js');
fbq('init', '123456789');
fbq('track', 'PageView');
</script>
<noscript><img height="1" width="1" style="display:none"
src="https://www.facebook.com/tr?id=123456789&ev=PageView&noscript=1"
/></noscript>
<!-- End Meta Pixel Code -->`,
  hotjar: `<!-- Hotjar Tracking Code -->
<script>
    (function(h,o,t,j,a,r){
        h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};
        h._hjSettings={hjid:1234567,hjsv:6};
        a=o.getElementsByTagName('head')[0];
        r=o.createElement('script');r.async=1;
        r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;
        a.appendChild(r);
    })(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');
</script>`,
  clarity: `<script type="text/javascript">
    (function(c,l,a,r,i,t,y){
        c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
        t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;
        y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);
    })(window, document, "clarity", "script", "abcdefghij");
</script>`,
  linkedin: `<script type="text/javascript">
_linkedin_partner_id = "1234567";
window._linkedin_data_partner_ids = window._linkedin_data_partner_ids || [];
window._linkedin_data_partner_ids.push(_linkedin_partner_id);
</script><script type="text/javascript">
(function(l) {
if (!l){window.lintrk = function(a,b){window.lintrk.q.push([a,b])};
window.lintrk.q=[]}
var s = document.getElementsByTagName("script")[0];
var b = document.createElement("script");
b.type = "text/javascript";b.async = true;
b.src = "https://snap.licdn.com/li.lms-analytics/insight.min.js";
s.parentNode.insertBefore(b, s);})(window.lintrk);
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt="" src="https://px.ads.linkedin.com/collect/?pid=1234567&fmt=gif" />
</noscript>`,
  tiktok: `<script>
!function (w, d, t) {
  w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie","holdConsent","revokeConsent","grantConsent"],ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(
var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e},ttq.load=function(e,n){var r="https://analytics.tiktok.com/i18n/pixel/events.js",o=n&&n.partner;ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=r,ttq._t=ttq._t||{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};n=document.createElement("script")
;n.type="text/javascript",n.async=!0,n.src=r+"?sdkid="+e+"&lib="+t;e=document.getElementsByTagName("script")[0];e.parentNode.insertBefore(n,e)};

  ttq.load('CTEST12345');
  ttq.page();
}(window, document, 'ttq');
</script>`,
  youtube: `<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ?si=test" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`,
  maps: `<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2000!2d18.07!3d59.33" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>`,
  pixel: `<img src="https://cdn.tracker.example/pixel.gif?ev=html" width="1" height="1" alt="">`,
};

const T = "https://cdn.tracker.example";

/**
 * Each pattern of the issue, by finding; paths name the pattern (and the round `i` of 20). A pattern's script is its
 * own `<script>`, so one that throws cannot hide the others.
 */
export const patterns: Record<string, string> = {
  // 2: document.write and writeln of a listed script (and a pixel) while the page parses.
  write: `for (var i = 0; i < 20; i++) document.write('<script src="${T}/write/' + i + '.js"><\\/script>');
document.writeln('<script src="${T}/writeln.js"><\\/script>');
document.write('<img alt="" src="${T}/write/img.gif">');`,
  // 4: HTML strings: detached, inserted later, inserted at once, frames inside an attached element.
  strings: `var later = [];
for (var i = 0; i < 20; i++) {
  document.createElement("div").innerHTML = '<img alt="" src="${T}/detached/' + i + '.gif">';
  var box = document.createElement("div"); box.innerHTML = '<img alt="" src="${T}/later/' + i + '.gif">'; later.push(box);
  document.body.insertAdjacentHTML("beforeend", '<img alt="" src="${T}/adjacent/' + i + '.gif">');
  var holder = document.createElement("div"); document.getElementById("frames").append(holder);
  holder.innerHTML = '<iframe width="1" height="1" src="https://player.vimeo.com/video/' + i + '"></iframe>';
  var span = document.createElement("span"); document.body.append(span); span.outerHTML = '<img alt="" src="${T}/outer/' + i + '.gif">';
  if (document.body.setHTMLUnsafe) { var unsafe = document.createElement("div"); unsafe.setHTMLUnsafe('<img alt="" src="${T}/unsafe/' + i + '.gif">'); document.body.append(unsafe); }
  var parsed = new DOMParser().parseFromString('<img alt="" src="${T}/parser/' + i + '.gif">', "text/html"); document.body.append(parsed.body.firstChild);
  var template = document.createElement("template"); template.innerHTML = '<img alt="" src="${T}/template/' + i + '.gif">'; document.importNode(template.content, true);
  document.createRange().createContextualFragment('<img alt="" src="${T}/range/' + i + '.gif">');
}
setTimeout(function () { later.forEach(function (box) { document.body.append(box); }); window.__laterDone = true; });`,
  // 6: a script in an HTML string: a browser never runs it, with or without the blocker.
  inert: `document.body.insertAdjacentHTML("beforeend", '<script src="${T}/inert/adjacent.js"><\\/script>');
var inert = document.createElement("div"); document.body.append(inert); inert.innerHTML = '<script src="${T}/inert/inner.js"><\\/script>';`,
  // 7: resource hints made by script.
  hints: `[["preload", "${T}/hint/preload.js", "script"], ["prefetch", "${T}/hint/prefetch.js"], ["modulepreload", "${T}/hint/modulepreload.js"],
 ["preconnect", "https://script.hotjar.com"], ["dns-prefetch", "https://script.hotjar.com"]].forEach(function (hint) {
  var link = document.createElement("link"); link.rel = hint[0]; link.href = hint[1]; if (hint[2]) link.as = hint[2]; document.head.append(link);
});`,
  // 3: rules by URL: Maps' embed on www.google.com is held, reCAPTCHA on the same host is not.
  rules: `var map = document.createElement("iframe"); map.src = "https://www.google.com/maps/embed?pb=script"; document.body.append(map);
var captcha = document.createElement("script"); captcha.src = "https://www.google.com/recaptcha/api.js"; document.head.append(captcha);`,
  // 5: a same-origin frame the page creates and writes trackers into.
  frame: `var frame = document.createElement("iframe"); frame.id = "same-origin"; document.body.append(frame);
var inner = frame.contentDocument;
inner.open(); inner.write('<!doctype html><script src="${T}/frame/write.js"><\\/script><img alt="" src="${T}/frame/img.gif">'); inner.close();
var made = inner.createElement("script"); made.src = "${T}/frame/created.js"; inner.head.append(made);`,
};

/** The audit page with the project's blocker first in `<head>`. */
export function auditPage({ blocker, widget, projectId }: { blocker: string; widget: string; projectId: string }) {
  const run = (name: string) => `<script data-pattern="${name}">${patterns[name]}</script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Audit shop</title>
${blocker}
${snippets.gtmHead}
${snippets.ga4}
${snippets.meta}
${snippets.hotjar}
${snippets.clarity}
${snippets.linkedin}
${snippets.tiktok}
${widget}
</head><body>
${snippets.gtmBody}
<h1>Audit shop</h1>
${snippets.youtube}
${snippets.maps}
${snippets.pixel}
<div id="frames"></div>
${run("write")}
${run("strings")}
${run("inert")}
${run("hints")}
${run("rules")}
${run("frame")}
<script>
  // Done once the late insertions ran and the page has loaded.
  (function done() { if (window.__laterDone && document.readyState === "complete") window.__patternsDone = true; else setTimeout(done, 10); })();
</script>
<assent-consent project="${projectId}" regime="opt-in"></assent-consent>
</body></html>`;
}
