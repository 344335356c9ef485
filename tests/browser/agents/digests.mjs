// Alert email digests in the console (issue 32 item 5): a member on hourly
// digests (SERVICE_DIGEST_PERIODS hourly=1: one second) is assigned a bug
// twice; each digest is sent through the file mail provider, and the
// project page's "Your digest emails" card lists both, accepted by the
// provider. "Send again" (after the duplicate-risk confirmation) queues the
// first one with the next generation and it is sent again; "I got it"
// records the second one's receipt without changing its provider state.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));

export default async function digests(t) {
  const stamp = Date.now().toString(36);
  const email = `digest-${stamp}@agents.example`;
  const password = "digests-password-1";
  const { base, mailDir } = await t.startServer("digests", {
    env: { SERVICE_DIGEST_PERIODS: "hourly=1", SERVICE_REQUIRE_EMAIL_VERIFICATION: "0" },
    database: t.databaseFor("digests"),
  });
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Dee Gest", orgName: `Digest Shop ${stamp}` } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project.id;
  const me = reg.body.user.id;
  const prefs = await t.api(base, "PATCH", `/v1/team/${me}/notifications`, { token, org, body: { digestFreq: "hourly" } });
  assert.equal(prefs.status, 200, JSON.stringify(prefs.body));
  const sent = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: { title: `Cart total wrong ${stamp}`, url: "https://shop.example/cart", events: [{ type: "error", data: { name: "Error", message: "total" } }] },
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  const bug = sent.body.id;

  const history = async () => {
    const r = await t.api(base, "GET", `/v1/alerts/digests?projectId=${project}`, { token, org });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.batches;
  };
  const until = async (what, check) => {
    for (let i = 0; i < 100; i++) {
      const batches = await history();
      if (check(batches)) return batches;
      await pause(100);
    }
    throw new Error(`digests: ${what}: ${JSON.stringify(await history())}`);
  };
  // Two digests: assigned, sent; unassigned and assigned again, sent.
  for (let n = 1; n <= 2; n++) {
    if (n === 2) assert.equal((await t.api(base, "PATCH", `/v1/bugs/${bug}`, { token, org, body: { assignedTo: null } })).status, 200);
    const a = await t.api(base, "PATCH", `/v1/bugs/${bug}`, { token, org, body: { assignedTo: me } });
    assert.equal(a.status, 200, JSON.stringify(a.body));
    await until(`digest ${n} sent`, (b) => b.length === n && b.every((x) => x.state === "succeeded"));
  }
  // The digest mails to this member (registration also mailed a verification
  // link). Servers on one database send each other's batches: every mail-*
  // folder beside this server's counts.
  const parent = mailDir.slice(0, mailDir.lastIndexOf("/"));
  const digestMails = () => {
    let n = 0;
    for (const dir of readdirSync(parent).filter((d) => d.startsWith("mail-"))) {
      for (const f of readdirSync(join(parent, dir)).filter((name) => name.endsWith(".eml"))) {
        const text = readFileSync(join(parent, dir, f), "utf8");
        if (text.includes(`\r\nTo: ${email}\r\n`) && /\r\nSubject: Your hourly digest/.test(text)) n++;
      }
    }
    return n;
  };
  assert.equal(digestMails(), 2, `two digest mails to ${email} in ${parent}/mail-*`);
  const [first, second] = await history();

  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "digests");
  page.on("dialog", (d) => d.accept());
  await page.goto(`${base}/projects/${project}`);
  await t.settled(page);
  await page.waitForSelector(`#digests[data-loaded] tr[data-batch="${first.id}"]`);
  assert.equal(await page.$$eval("#digest-batches tbody tr[data-batch]", (rows) => rows.length), 2);
  assert.match(await page.$eval(`tr[data-batch="${first.id}"] .digest-state`, (e) => e.textContent), /Accepted by the mail provider/);
  assert.doesNotMatch(await page.$eval("#digests", (e) => e.textContent), new RegExp(email));

  // "Send again": the same batch, next generation, sent again.
  await page.click(`tr[data-batch="${first.id}"] button.digest-retry`);
  await until("the first digest sent again", (b) => b[0].generation === 1 && b[0].state === "succeeded");
  const again = (await history())[0];
  assert.equal(again.id, first.id);
  assert.equal(again.attempts, 2);
  assert.equal(again.resolution.action, "retry");
  assert.equal(digestMails(), 3);
  await page.waitForFunction((id) => /Sent again on your request/.test(document.querySelector(`tr[data-batch="${id}"] .digest-resolution`)?.textContent || ""), {}, first.id);

  // "I got it": a record of the recipient; the provider state stays.
  await page.click(`tr[data-batch="${second.id}"] button.digest-received`);
  await page.waitForFunction((id) => /You got it/.test(document.querySelector(`tr[data-batch="${id}"] .digest-resolution`)?.textContent || ""), {}, second.id);
  const got = (await history())[1];
  assert.equal(got.resolution.action, "received");
  assert.equal(got.resolution.confirmedByRecipient, true);
  assert.equal(got.state, "succeeded");
  assert.equal(got.allowedActions.received, false);
  assert.equal(await page.$(`tr[data-batch="${second.id}"] button.digest-received`), null);
  assert.doesNotMatch(await page.$eval("#digests", (e) => e.textContent), /\[object|undefined/);
  await (await page.$("#digests")).screenshot({ path: join(t.shotDir, "digests.png") });
  await context.close();
}
