// firefox_driver.mjs — drives Firefox ESR for the cross-engine smoke tests (issue 17), on behalf of
// e2e/engines/engine_drivers.py. Debian has no geckodriver, so Selenium cannot reach Firefox here;
// npm puppeteer-core speaks WebDriver BiDi to /usr/bin/firefox-esr directly (no browser download).
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on stdout.
//   {id, cmd: "goto", url} | {id, cmd: "reload"} | {id, cmd: "eval", expr}   expr: a JS expression,
//   awaited if it is a Promise; its value must be JSON-serialisable.
//   {id, cmd: "click", x, y}       a real mouse click at viewport coordinates (CSS pixels)
//   {id, cmd: "clickSelector", selector}
//   {id, cmd: "console"}           console messages and page errors so far (page and its workers)
//   {id, cmd: "version"} | {id, cmd: "close"}
// Answer: {id, ok: true, value} or {id, ok: false, error}. Usage: node firefox_driver.mjs WIDTH HEIGHT

import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const FIREFOX = process.env.KALTFRONT_FIREFOX || "/usr/bin/firefox-esr";
const [width, height] = [Number(process.argv[2] || 1280), Number(process.argv[3] || 800)];

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: FIREFOX,
  headless: true,
  // The window itself at this size: puppeteer's defaultViewport only resizes the layout viewport over
  // BiDi, and pointer actions outside the real window are refused.
  args: ["--width", String(width), "--height", String(height)],
  defaultViewport: null,
  // Nothing may leave the machine: no updates, telemetry or captive-portal checks during tests.
  extraPrefsFirefox: {
    "app.update.enabled": false,
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "toolkit.telemetry.enabled": false,
    "datareporting.healthreport.uploadEnabled": false,
  },
});
const page = (await browser.pages())[0] || (await browser.newPage());
const messages = [];
page.on("console", (m) => messages.push({ type: m.type(), text: m.text() }));
page.on("pageerror", (e) => messages.push({ type: "pageerror", text: String(e && e.message ? e.message : e) }));

const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

async function handle(req) {
  switch (req.cmd) {
    case "goto":
      await page.goto(req.url, { waitUntil: "load" });
      return null;
    case "reload":
      await page.reload({ waitUntil: "load" });
      return null;
    case "eval":
      return await page.evaluate(req.expr);
    case "click":
      await page.mouse.click(req.x, req.y);
      return null;
    case "clickSelector":
      await page.click(req.selector);
      return null;
    case "console":
      return messages.slice();
    case "version":
      return await browser.version();
    case "close":
      await browser.close();
      return null;
    default:
      throw new Error(`unknown command ${req.cmd}`);
  }
}

send({ id: 0, ok: true, value: "ready" });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  try {
    send({ id: req.id, ok: true, value: (await handle(req)) ?? null });
  } catch (err) {
    send({ id: req.id, ok: false, error: String(err && err.stack ? err.stack : err) });
  }
  if (req.cmd === "close") break;
}
await browser.close().catch(() => {});
process.exit(0);
