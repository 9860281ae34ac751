import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
const [url] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["seo"] });
console.log(JSON.stringify(lhr.audits["robots-txt"], null, 1).slice(0, 2000));
await chrome.kill();
