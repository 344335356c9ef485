// Evidence in the console (issue 30 items 1 and 6): a server with
// SERVICE_EVIDENCE_DIR; a log and a replay are reserved and uploaded through
// the API, an ingest names them in metadata.evidence, and the bug's page
// lists them under the occurrence (kind, type, size) and downloads the
// log's exact bytes as a file.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

async function until(pred, what, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export default async function evidence(t) {
  const stamp = Date.now().toString(36);
  const email = `evidence-${stamp}@agents.example`;
  const password = "evidence-password-1";
  const dir = join(t.work, "evidence-files");
  const { base } = await t.startServer("evidence", {
    env: { SERVICE_MAIL_URL: "", SERVICE_EVIDENCE_DIR: dir },
    database: t.databaseFor("evidence"),
  });
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Eve Evidence", orgName: `Evidence Shop ${stamp}` } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project.id;

  const caps = await t.api(base, "GET", "/v1/evidence/capabilities", { token, org });
  assert.equal(caps.status, 200);
  assert.equal(caps.body.configured, true);

  const files = [
    { kind: "log", contentType: "text/plain", bytes: Buffer.from(`12:00:01 checkout clicked\n12:00:02 TypeError: x is undefined ${stamp}\n`) },
    { kind: "replay", contentType: "application/json", bytes: Buffer.from(JSON.stringify([{ t: 0, type: "click", target: "#pay" }])) },
  ];
  const ids = [];
  for (const f of files) {
    const reserved = await t.api(base, "POST", `/v1/evidence/projects/${project}/artifacts`, {
      token,
      org,
      body: { kind: f.kind, contentType: f.contentType, byteCount: f.bytes.length, sha256: createHash("sha256").update(f.bytes).digest("hex") },
    });
    assert.equal(reserved.status, 201, JSON.stringify(reserved.body));
    const id = reserved.body.artifact.id;
    const put = await fetch(`${base}/v1/evidence/projects/${project}/artifacts/${id}/content`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "X-Service-Org": org, "Content-Type": f.contentType },
      body: f.bytes,
    });
    assert.equal(put.status, 200, await put.text());
    ids.push(id);
  }
  const bug = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: { title: `Pay button throws ${stamp}`, severity: "high", url: "https://shop.example/pay", metadata: { evidence: ids } },
  });
  assert.equal(bug.status, 201, JSON.stringify(bug.body));

  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "evidence admin");
  const downloads = join(t.work, "evidence-downloads");
  mkdirSync(downloads, { recursive: true });
  const cdp = await page.createCDPSession();
  await cdp.send("Page.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  await page.goto(`${base}/bugs/${bug.body.id}`);
  await t.settled(page);
  await page.waitForSelector("#evidence .evidence-item");
  const items = await page.$$eval("#evidence .evidence-item", (els) => els.map((e) => ({ id: e.dataset.artifact, kind: e.dataset.kind, text: e.textContent })));
  assert.deepEqual(
    items.map((i) => i.id),
    ids,
  );
  assert.match(items[0].text, /log/);
  assert.match(items[0].text, new RegExp(`text/plain · ${files[0].bytes.length} B`));
  assert.match(items[1].text, /application\/json/);
  assert.equal(await page.$eval("#evidence .evidence-occurrence", (e) => e.dataset.occurrence), bug.body.occurrenceId);
  assert.doesNotMatch(await page.$eval("#evidence", (e) => e.textContent), /null|undefined|sha256\//);

  await page.click(`#evidence button.evidence-download[data-artifact="${ids[0]}"]`);
  const name = `${ids[0]}.log`;
  await until(() => existsSync(join(downloads, name)) && !readdirSync(downloads).some((f) => f.endsWith(".crdownload")), "the downloaded log");
  assert.deepEqual(readFileSync(join(downloads, name)), files[0].bytes);
  await page.screenshot({ path: join(t.shotDir, "evidence.png") });
  await context.close();
}
