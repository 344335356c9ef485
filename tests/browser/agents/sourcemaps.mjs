// Source maps in the console (issue 31 items 2 and 4): an organization on
// pro builds a small app with the real esbuild (minified, with its source
// map), injects debug ids and uploads the maps with the unmodified
// sentry-cli (tests/e2e/sourcemaps/node_modules) and an agent token with
// publish_symbols. The bundle runs in Node for a real minified stack, sent
// as a Sentry envelope from "the browser" (frames at
// https://shop.example/assets/app.js, debug_meta naming the injected debug
// id, and one vendor frame without a map). On the bug's page the stack
// view shows the original function and file:line with its context lines
// (the line highlighted, markup in the source shown as text), "Show
// minified" shows the frames as sent (per frame and for the whole stack),
// and the vendor frame says why it stayed minified. The project's page
// lists the bundle, its files, the debug id, the release and the upload
// command.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const TOOLS = fileURLToPath(new URL("../../e2e/sourcemaps/node_modules/.bin/", import.meta.url));
const ASSET = "https://shop.example/assets/app.js";
const VENDOR = "https://cdn.shop.example/vendor.min.js";

// The app: computeTotal calls a price list's missing discount rule (a
// TypeError); the comment holds markup the console must show as text.
const CART = `export function computeTotal(items, priceList) {
  const discountFor = priceList.discount;
  let total = 0; // <b>sum</b> & <i>more</i>
  for (const item of items) {
    const price = item.price * item.quantity;
    total += price - discountFor(item, price);
  }
  return total;
}
`;
const MAIN = `import { computeTotal } from './cart.js';

export function checkout(cart) {
  return computeTotal(cart.items, cart.priceList);
}

try {
  checkout({ items: [{ price: 12, quantity: 2 }], priceList: { currency: 'EUR' } });
} catch (e) {
  console.log(JSON.stringify({ name: e.name, message: e.message, stack: e.stack }));
}
`;

async function until(pred, what, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// V8's stack frames of the bundle, innermost first: {fn, line, col}.
function bundleFrames(stack, file) {
  const out = [];
  for (const line of stack.split("\n").slice(1)) {
    const m = line.match(/^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/);
    if (m && m[2] === file) out.push({ fn: m[1] || "", line: Number(m[3]), col: Number(m[4]) });
  }
  return out;
}

export default async function sourcemaps(t) {
  assert.ok(existsSync(join(TOOLS, "sentry-cli")), "@sentry/cli is not installed: scripts/install-deps.sh --test runs npm ci in tests/e2e/sourcemaps");
  const stamp = Date.now().toString(36);
  const opEmail = `operator-sm-${stamp}@ops.example`;
  const email = `maps-${stamp}@shop.example`;
  const password = "sourcemaps-password-1";
  const { base, mailDir } = await t.startServer("sourcemaps", {
    env: { SERVICE_SUPERADMIN_EMAILS: opEmail, SERVICE_REQUIRE_EMAIL_VERIFICATION: "0", SERVICE_EVIDENCE_DIR: join(t.work, "sourcemaps-files") },
    database: t.databaseFor("sourcemaps"),
  });
  const op = await t.api(base, "POST", "/v1/auth/register", {
    body: { email: opEmail, password: "operator-password-1", name: "Olga Operator", orgName: `Operators SM ${stamp}` },
  });
  assert.equal(op.status, 201, JSON.stringify(op.body));
  const link = await t.mailedLink(mailDir, /http:\/\/\S+\/verify-email#token=[0-9a-f]+/, { to: opEmail });
  assert.equal((await t.api(base, "POST", "/v1/auth/verify-email", { body: { token: link.split("#token=")[1] } })).status, 200);
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Mia Maps", orgName: `Maps Shop ${stamp}` } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project;
  assert.equal((await t.api(base, "PATCH", `/v1/admin/customers/${org}`, { token: op.body.accessToken, body: { plan: "pro" } })).status, 200);
  const pat = await t.api(base, "POST", "/v1/org/agent-pats", {
    token,
    org,
    body: { name: "sentry-cli", scopes: ["publish_symbols"], expiresAt: new Date(Date.now() + 7 * 86400000).toISOString(), projectGrants: [{ projectId: project.id }] },
  });
  assert.equal(pat.status, 201, JSON.stringify(pat.body));

  // Build, inject, upload (the real tools), then run the bundle for its stack.
  const work = join(t.work, `sourcemaps-app-${stamp}`);
  mkdirSync(join(work, "src"), { recursive: true });
  writeFileSync(join(work, "src/cart.js"), CART);
  writeFileSync(join(work, "src/main.js"), MAIN);
  const run = (file, args) => execFileSync(file, args, { cwd: work, env: { ...process.env, HOME: work, SENTRY_LOAD_DOTENV: "0" }, encoding: "utf8", timeout: 120000, stdio: ["ignore", "pipe", "pipe"] });
  run(join(TOOLS, "esbuild"), ["src/main.js", "--bundle", "--minify", "--sourcemap", "--format=iife", "--outfile=dist/app.js"]);
  run(join(TOOLS, "sentry-cli"), ["sourcemaps", "inject", "dist"]);
  const minified = readFileSync(join(work, "dist/app.js"), "utf8");
  const debugId = (minified.match(/\/\/# debugId=([0-9a-f-]{36})/) || [])[1];
  assert.ok(debugId, minified);
  const release = `shop@1.0.${stamp}`;
  run(join(TOOLS, "sentry-cli"), ["--url", base, "--auth-token", pat.body.token, "sourcemaps", "upload", "--org", reg.body.org.slug, "--project", project.slug, "--release", release, "--dist", "web", "--wait", "dist"]);
  const thrown = JSON.parse(run(process.execPath, ["dist/app.js"]).trim());
  const v8 = bundleFrames(thrown.stack, join(work, "dist/app.js"));
  assert.ok(v8.length >= 2, thrown.stack);
  const throwLine = CART.split("\n").findIndex((l) => l.includes("discountFor(item, price)")) + 1;

  // The envelope a browser SDK sends: Sentry's frame order (outermost
  // first), the vendor caller outermost, debug_meta naming the debug id.
  const frames = [
    { function: "dispatch", filename: VENDOR, abs_path: VENDOR, lineno: 1, colno: 2345, in_app: false },
    ...v8.reverse().map((f) => ({ function: f.fn, filename: ASSET, abs_path: ASSET, lineno: f.line, colno: f.col, in_app: true })),
  ];
  const eventId = randomUUID().replaceAll("-", "");
  const event = {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: "javascript",
    level: "error",
    release,
    dist: "web",
    sdk: { name: "sentry.javascript.browser", version: "8.0.0" },
    request: { url: "https://shop.example/checkout", headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" } },
    exception: { values: [{ type: thrown.name, value: thrown.message, stacktrace: { frames }, mechanism: { type: "onerror", handled: false } }] },
    debug_meta: { images: [{ type: "sourcemap", code_file: ASSET, debug_id: debugId }] },
  };
  const envelope = `${JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
  const sent = await fetch(`${base}/api/${project.project_number}/envelope/?sentry_key=${reg.body.apiKey}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-sentry-envelope" },
    body: envelope,
  });
  assert.equal(sent.status, 200, await sent.text());

  // The stored frames: the original's values, those sent in `minified`.
  let bugId = null;
  let data = null;
  await until(async () => {
    const list = await t.api(base, "GET", "/v1/bugs?signalClass=all&limit=5", { token, org });
    bugId = list.body.bugs && list.body.bugs[0] && list.body.bugs[0].id;
    if (!bugId) return false;
    const ev = await t.api(base, "GET", `/v1/bugs/${bugId}/events?type=error`, { token, org });
    data = ev.body.events && ev.body.events[0] && ev.body.events[0].data;
    return !!data;
  }, "the error event");
  const innermost = data.frames[data.frames.length - 1];
  assert.ok(innermost.minified, JSON.stringify(data.frames));
  assert.equal(innermost.function, "computeTotal", JSON.stringify(innermost));
  assert.equal(innermost.lineno, throwLine);
  assert.match(innermost.filename, /src\/cart\.js$/);
  assert.equal(innermost.sourcemap && innermost.sourcemap.resolved_with, "debug_id", JSON.stringify(innermost));
  assert.equal(data.frames[0].sourcemap && data.frames[0].sourcemap.reason, "map_not_found", JSON.stringify(data.frames[0]));

  // The bug's page: the stack view, innermost first.
  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "sourcemaps admin");
  await page.goto(`${base}/bugs/${bugId}`);
  await t.settled(page);
  await page.waitForSelector(".stack-view li.frame-resolved");
  const view = await page.$eval(".stack-view", (s) => {
    const items = [...s.querySelectorAll("ol.frames > li.frame")];
    const visible = (el) => !!el && !el.closest("[hidden]");
    return items.map((li) => ({
      cls: li.className,
      view: li.dataset.view || "",
      fn: (li.querySelector(".frame-original .frame-fn") || li.querySelector(".frame-fn")).textContent,
      loc: (li.querySelector(".frame-original .frame-loc") || li.querySelector(".frame-loc")).textContent,
      minifiedShown: visible(li.querySelector(".frame-minified")),
      current: li.querySelector("table.context tr.current") ? [...li.querySelectorAll("table.context tr.current td")].map((td) => td.textContent) : null,
      rows: [...li.querySelectorAll("table.context tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
      markup: li.querySelectorAll("table.context b, table.context i").length,
      reason: li.querySelector(".frame-reason") ? li.querySelector(".frame-reason").textContent : null,
    }));
  });
  assert.equal(view.length, frames.length, JSON.stringify(view));
  const top = view[0];
  assert.match(top.cls, /frame-resolved/);
  assert.equal(top.fn, "computeTotal");
  assert.match(top.loc, new RegExp(`src/cart\\.js:${throwLine}:\\d+$`));
  assert.equal(top.minifiedShown, false);
  assert.equal(top.current[0], String(throwLine));
  assert.equal(top.current[1].trim(), "total += price - discountFor(item, price);");
  const pre = top.rows.find((r) => r[0] === String(throwLine - 1));
  assert.ok(pre && pre[1].includes("item.price * item.quantity"), JSON.stringify(top.rows));
  // Markup in the source is text, never elements.
  assert.ok(top.rows.some((r) => r[1].includes("// <b>sum</b> & <i>more</i>")), JSON.stringify(top.rows));
  assert.equal(top.markup, 0);
  assert.ok(view.some((f) => /frame-resolved/.test(f.cls) && f.fn === "checkout" && /src\/main\.js:\d+:\d+$/.test(f.loc)), JSON.stringify(view));
  const vendor = view[view.length - 1];
  assert.match(vendor.cls, /frame-unresolved/);
  assert.equal(vendor.fn, "dispatch");
  assert.equal(vendor.loc, `${VENDOR}:1:2345`);
  assert.equal(vendor.reason, "Stayed minified: no source map uploaded for this file (map_not_found)");
  await (await page.$(".stack-view")).screenshot({ path: join(t.shotDir, "sourcemaps-stack.png") });

  // "Show minified" on the innermost frame: the frame as sent.
  await page.evaluate(() => document.querySelector(".stack-view li.frame-resolved button.frame-toggle").click());
  await page.waitForSelector('.stack-view li.frame-resolved[data-view="minified"]');
  const sentTop = await page.$eval(".stack-view li.frame-resolved", (li) => ({
    fn: li.querySelector(".frame-minified .frame-fn").textContent,
    loc: li.querySelector(".frame-minified .frame-loc").textContent,
    contextHidden: !!li.querySelector("table.context").closest("[hidden]"),
    originalHidden: !!li.querySelector(".frame-original").closest("[hidden]"),
    button: li.querySelector("button.frame-toggle").textContent,
  }));
  const innermostSent = frames[frames.length - 1];
  assert.deepEqual(sentTop, {
    fn: innermostSent.function,
    loc: `${ASSET}:${innermostSent.lineno}:${innermostSent.colno}`,
    contextHidden: true,
    originalHidden: true,
    button: "Show original",
  });
  // The whole stack minified, then original again.
  await page.evaluate(() => document.querySelector(".stack-view button.stack-toggle").click());
  await page.waitForFunction(() => [...document.querySelectorAll(".stack-view li.frame-resolved")].every((li) => li.dataset.view === "minified"));
  assert.equal(await page.$eval(".stack-view button.stack-toggle", (b) => b.getAttribute("aria-pressed")), "true");
  await page.evaluate(() => document.querySelector(".stack-view button.stack-toggle").click());
  await page.waitForFunction(() => [...document.querySelectorAll(".stack-view li.frame-resolved")].every((li) => li.dataset.view === "original"));

  // The project's page: the Source maps card.
  await page.goto(`${base}/projects/${project.id}`);
  await t.settled(page);
  await page.waitForSelector('#sourcemaps[data-loaded="true"]');
  const card = await page.$eval("#sourcemaps", (s) => ({
    command: s.querySelector("#sourcemaps-command").textContent,
    count: s.querySelector("#sourcemap-bundle-count").textContent,
    bundles: [...s.querySelectorAll("#sourcemap-bundles tr[data-bundle]")].map((tr) => tr.textContent),
    ids: [...s.querySelectorAll("#sourcemap-debug-ids tr[data-debug-id]")].map((tr) => tr.dataset.debugId),
    releases: [...s.querySelectorAll("#sourcemap-releases tr[data-release]")].map((tr) => tr.textContent),
    unavailable: !!s.querySelector("#sourcemaps-unavailable"),
  }));
  assert.equal(card.unavailable, false, "the server has storage");
  assert.ok(card.command.includes(`sentry-cli --url ${base} --auth-token <agent token> sourcemaps upload --org ${reg.body.org.slug} --project ${project.slug} --release <release> dist/`), card.command);
  assert.equal(card.count, "(1)");
  assert.equal(card.bundles.length, 1, JSON.stringify(card));
  assert.ok(card.bundles[0].includes(release) && card.bundles[0].includes("web"), card.bundles[0]);
  assert.deepEqual(card.ids, [debugId]);
  assert.equal(card.releases.length, 1);
  assert.ok(card.releases[0].startsWith(release), card.releases[0]);
  // A bundle's files: find and click in one step (the card may redraw).
  await page.evaluate(() => document.querySelector("#sourcemap-bundles tr[data-bundle] button.bundle-open").click());
  await page.waitForSelector('#sourcemap-bundles .bundle-file-list tr[data-type="source_map"]');
  const files = await page.$$eval("#sourcemap-bundles .bundle-file-list tbody tr", (rows) => rows.map((r) => ({ type: r.dataset.type, text: r.textContent })));
  assert.equal(files.length, 2, JSON.stringify(files));
  const min = files.find((f) => f.type === "minified_source");
  assert.ok(min && min.text.includes("~/app.js") && min.text.includes(debugId), JSON.stringify(files));
  await (await page.$("#sourcemaps")).screenshot({ path: join(t.shotDir, "sourcemaps-card.png") });
  await context.close();
}
