// Agents, in a real browser (issue 29): Debian's headless
// Chromium driven by puppeteer-core against real service-server processes.
//
//   node agents.mjs SERVER_BINARY SCREENSHOT_DIR [CHROMIUM]
//
// Runs the sections in agents/, each `export default async function (t)`:
//   tokens    an admin creates an agent token, sees its secret once, the
//             token reads a bug through the API, is edited and revoked
//   handoff   "Hand to an agent" on a bug page reaches an agent channel;
//             the project's agent settings turn on auto-notify
//   evidence  a log and a replay uploaded and attached by an ingest are
//             listed on the bug's page; the log downloads byte for byte
//   applications  an application, an installation and a build added through
//             the forms; a capture naming the installation shows its
//             first-capture receipt live
//   verification  runner and device enrollment through the forms; an agent's
//             signed receipt and promotion show "Verified fixed" on the bug
//             page; revoking the runner makes it unproven
//   scrubbing the project's scrubbing settings saved on its page; a report's
//             secrets arrive as [Filtered] and the card counts them
//   sourcemaps  a bundle built by esbuild and uploaded by sentry-cli; an
//             envelope's minified frames shown resolved on the bug page
//             (context lines, "Show minified", why a frame stayed
//             minified); the project page lists the bundle
//   digests   a member's hourly digests (1 s periods) sent through the file
//             provider are listed on the project page; "Send again" resends
//             one with the next generation, "I got it" records receipt
// OPS_DATABASE names one database for every server (the C++ test passes a
// fresh PostgreSQL schema: several processes on one database); otherwise
// each server has its own SQLite file. Exits 0 when every check holds.
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { api, mailedLink, settled, signInPage, startServer, stopAll } from "./lib.mjs";

const [binary, shotDir, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!binary || !shotDir) {
  console.error("usage: node agents.mjs SERVER_BINARY SCREENSHOT_DIR [CHROMIUM]");
  process.exit(2);
}
mkdirSync(shotDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "service-agents-"));
const all = ["tokens", "handoff", "evidence", "applications", "verification", "scrubbing", "sourcemaps", "digests"];
// AGENTS_ONLY=name[,name...] runs those sections alone (while working on one).
const sections = process.env.AGENTS_ONLY ? all.filter((n) => process.env.AGENTS_ONLY.split(",").includes(n)) : all;

let browser;
let failed = false;
try {
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const problems = [];
  const t = {
    browser,
    binary,
    work,
    shotDir,
    problems,
    databaseFor: (name) => process.env.OPS_DATABASE || `sqlite:${work}/${name}.db`,
    startServer: (name, options) => startServer(binary, work, name, options),
    signInPage,
    settled,
    mailedLink,
    api,
    // Collects page errors and console errors of `page` under `label`.
    watch(page, label) {
      page.on("pageerror", (e) => problems.push(`page error (${label}): ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error" && !/401|402|403|Unauthorized/.test(m.text())) problems.push(`console (${label}): ${m.text()}`);
      });
      return page;
    },
  };
  for (const name of sections) {
    const started = Date.now();
    const section = (await import(`./agents/${name}.mjs`)).default;
    await section(t);
    console.log(`${name}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  if (problems.length) throw new Error(`the pages load without errors:\n${problems.join("\n")}`);
  console.log("agents browser test: ok");
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  if (browser) await browser.close();
  stopAll();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
