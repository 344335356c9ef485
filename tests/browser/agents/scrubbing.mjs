// Scrubbing settings in the console (issue 31 items 3 and 4): on the
// project's page an admin adds an extra key and turns IP address storage
// off; the settings API reads them back, a report carrying that key and a
// password is stored with both values replaced, and after a reload the card
// shows the counts per rule (never the values).
import assert from "node:assert/strict";
import { join } from "node:path";

export default async function scrubbing(t) {
  const stamp = Date.now().toString(36);
  const email = `scrub-${stamp}@agents.example`;
  const password = "scrubbing-password-1";
  const { base } = await t.startServer("scrubbing", { env: { SERVICE_MAIL_URL: "" }, database: t.databaseFor("scrubbing") });
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Sam Scrub", orgName: `Scrub Shop ${stamp}` } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project.id;

  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "scrubbing admin");
  await page.goto(`${base}/projects/${project}`);
  await t.settled(page);
  await page.waitForSelector("#scrub-extra-keys");
  assert.equal(await page.$eval("#scrub-messages", (e) => e.checked), true);
  assert.equal(await page.$eval("#scrub-store-ip", (e) => e.checked), true);
  assert.match(await page.$eval("#scrubbing", (e) => e.textContent), /password/);
  await page.type("#scrub-extra-keys", "iban");
  await page.click("#scrub-store-ip");
  await page.click("#save-scrubbing");
  await page.waitForFunction(() => document.querySelector("#scrubbing-status")?.textContent === "Saved");
  const settings = await t.api(base, "GET", `/v1/projects/${project}/scrubbing`, { token, org });
  assert.deepEqual(settings.body.extraKeys, ["iban"]);
  assert.equal(settings.body.storeIpAddress, false);
  assert.equal(settings.body.scrubMessages, true);

  const secret = `pw-${stamp}-secret`;
  const sent = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: {
      title: `Sign-in fails ${stamp}`,
      url: "https://shop.example/login",
      events: [{ type: "error", data: { name: "Error", message: "sign-in failed" } }],
      metadata: { password: secret, customer_iban: "DE89370400440532013000" },
    },
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  const occ = await t.api(base, "GET", `/v1/bugs/${sent.body.id}/occurrences`, { token, org });
  assert.equal(occ.body.occurrences[0].metadata.password, "[Filtered]");
  assert.equal(occ.body.occurrences[0].metadata.customer_iban, "[Filtered]");

  await page.reload();
  await t.settled(page);
  await page.waitForSelector("#scrub-counts");
  assert.equal(await page.$eval("#scrub-store-ip", (e) => e.checked), false);
  assert.equal(await page.$eval("#scrub-extra-keys", (e) => e.value), "iban");
  assert.equal(await page.$eval('#scrub-counts tr[data-rule="key"] td.num', (e) => e.textContent), "2");
  assert.equal(await page.$eval('#scrub-counts tr[data-rule="ip"] td.num', (e) => e.textContent), "1");
  assert.doesNotMatch(await page.$eval("#scrubbing", (e) => e.textContent), new RegExp(secret));
  await (await page.$("#scrubbing")).screenshot({ path: join(t.shotDir, "scrubbing.png") });
  await context.close();
}
