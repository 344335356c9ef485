// Agent tokens (issue 29 items 1, 2 and 6): an operator (a verified address on
// SERVICE_SUPERADMIN_EMAILS) puts a new organization on the pro plan; its
// admin opens "Agent tokens" from the header, creates a token with read_bugs
// and a grant for the organization's project, sees the secret once (gone
// after a reload), reads a bug with it through the API (no X-Service-Org),
// edits it in the console (scopes and expiry: a new accessRevision), and
// revokes it: the API then answers 401. (The stale-edit 409 is an API test:
// the driver counts a 409 in the browser's console as a page error.)
import assert from "node:assert/strict";
import { join } from "node:path";

export default async function tokens(t) {
  const stamp = Date.now().toString(36);
  const opEmail = `operator-${stamp}@ops.example`;
  const email = `agents-${stamp}@shop.example`;
  const password = "agents-password-1";
  const { base, mailDir } = await t.startServer("tokens", {
    env: { SERVICE_SUPERADMIN_EMAILS: opEmail, SERVICE_REQUIRE_EMAIL_VERIFICATION: "0" },
    database: t.databaseFor("tokens"),
  });

  // The operator registers and confirms the address (the first mail).
  const op = await t.api(base, "POST", "/v1/auth/register", {
    body: { email: opEmail, password: "operator-password-1", name: "Olga Operator", orgName: `Operators ${stamp}` },
  });
  assert.equal(op.status, 201, JSON.stringify(op.body));
  const link = await t.mailedLink(mailDir, /http:\/\/\S+\/verify-email#token=[0-9a-f]+/, { to: opEmail });
  const verified = await t.api(base, "POST", "/v1/auth/verify-email", { body: { token: link.split("#token=")[1] } });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));

  // The customer registers; the operator moves it to pro; a bug arrives.
  const reg = await t.api(base, "POST", "/v1/auth/register", {
    body: { email, password, name: "Ada Agents", orgName: `Agent Shop ${stamp}` },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const orgId = reg.body.org.id;
  const projectId = reg.body.project.id;
  const plan = await t.api(base, "PATCH", `/v1/admin/customers/${orgId}`, { token: op.body.accessToken, body: { plan: "pro" } });
  assert.equal(plan.status, 200, JSON.stringify(plan.body));
  const ingest = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: {
      title: "Checkout button does nothing",
      url: "https://shop.example/checkout",
      events: [{ type: "error", timestamp: Date.now(), data: { name: "TypeError", message: "pay is not a function" } }],
    },
  });
  assert.equal(ingest.status, 201, JSON.stringify(ingest.body));
  const bugId = ingest.body.id;

  // The admin opens the page from the header and creates a token.
  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "agent tokens admin");
  await page.waitForSelector("#nav-agent-tokens:not([hidden])");
  await page.click('nav a[href="/agent-tokens"]');
  await t.settled(page);
  await page.waitForSelector("#agent-token-form");
  await page.type('#agent-token-form input[name="name"]', "Release agent");
  // read_bugs is checked already; add claim_issue and the project's grant.
  await page.click('#new-scopes input[value="claim_issue"]');
  await page.click(`#new-grants input[value="${projectId}"]`);
  await page.click('#agent-token-form button[type="submit"]');
  await page.waitForSelector("#agent-token-secret");
  const secret = await page.$eval("#agent-token-value", (e) => e.textContent);
  assert.match(secret, /^sv_pat_[A-Za-z0-9]{32,}$/);
  const row = await page.$eval("#agent-tokens tbody tr[data-id]", (r) => ({ id: r.dataset.id, state: r.dataset.state, text: r.textContent }));
  assert.equal(row.state, "active");
  assert.match(row.text, /Release agent/);
  assert.match(row.text, /read_bugs, claim_issue/);
  assert.ok(row.text.includes(reg.body.project.name), row.text);
  assert.ok(row.text.includes(secret.slice(0, 15)), "the prefix is shown");
  await page.screenshot({ path: join(t.shotDir, "agent-tokens.png") });

  // The secret is shown once: not after a reload, nor in the listing.
  await page.reload();
  await t.settled(page);
  await page.waitForSelector("#agent-tokens");
  assert.equal(await page.$("#agent-token-secret"), null);
  assert.ok(!(await page.content()).includes(secret));
  const listed = await t.api(base, "GET", "/v1/org/agent-pats", { token: reg.body.accessToken, org: orgId });
  assert.equal(listed.status, 200);
  assert.ok(!JSON.stringify(listed.body).includes(secret));

  // The token reads the bug through the API without X-Service-Org.
  const read = await t.api(base, "GET", `/v1/bugs/${bugId}`, { token: secret });
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.equal(read.body.id, bugId);
  const events = await t.api(base, "GET", `/v1/bugs/${bugId}/events`, { token: secret });
  assert.equal(events.status, 200, "pro: event reads are not metered");
  assert.equal((await t.api(base, "GET", "/v1/org/agent-pats", { token: secret })).status, 401, "token management is for people");

  // Edited in the console: claim_issue off, subscribe on, a new expiry.
  await page.click(`button[aria-label="Edit Release agent"]`);
  const edit = `#edit-${row.id}`;
  await page.waitForSelector(edit);
  await page.click(`${edit} input[value="claim_issue"]`);
  await page.click(`${edit} input[value="subscribe"]`);
  const newDay = new Date(Date.now() + 10 * 86400000).toISOString().slice(0, 10);
  await page.$eval(`${edit} input[name="expires"]`, (e, v) => (e.value = v), newDay);
  const before = listed.body.agentPats[0].accessRevision;
  await page.click(`${edit} button[type="submit"]`);
  await page.waitForFunction((id) => !document.querySelector(`#edit-${id}`) && document.querySelector(`tr[data-id="${id}"] .agent-scopes`)?.textContent === "read_bugs, subscribe", {}, row.id);
  const after = (await t.api(base, "GET", "/v1/org/agent-pats", { token: reg.body.accessToken, org: orgId })).body.agentPats[0];
  assert.deepEqual(after.scopes, ["read_bugs", "subscribe"]);
  assert.equal(after.expiresAt, `${newDay}T23:59:59.000Z`);
  assert.notEqual(after.accessRevision, before);
  assert.deepEqual(after.projectGrants.map((g) => g.projectId), [projectId]);

  // Revoked in the console: the API then answers 401.
  await page.waitForSelector('button[aria-label="Revoke Release agent"]');
  await page.click('button[aria-label="Revoke Release agent"]');
  await page.waitForFunction((id) => document.querySelector(`tr[data-id="${id}"]`)?.dataset.state === "revoked", {}, row.id);
  const refused = await t.api(base, "GET", `/v1/bugs/${bugId}`, { token: secret });
  assert.equal(refused.status, 401);
  await context.close();
}
