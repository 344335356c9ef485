// The operator area and support sessions (issue 28 items 2 and 5): an
// operator (SERVICE_SUPERADMIN_EMAILS) registers and confirms the address
// through the mailed link; a person joins the waitlist on the console's
// page; the operator signs in, opens the operator area (counts and the
// 30-day growth chart) and approves the entry; the person follows the mailed
// approval link and completes signup; the operator finds the new customer,
// starts a support session on it and sees the red banner on every page while
// acting there as an admin; the organization's admin sees the session and
// its requests on the team page; "End" returns the operator to the operator
// area and the session shows as ended.
import assert from "node:assert/strict";
import { join } from "node:path";

export default async function operator(t) {
  const stamp = Date.now().toString(36);
  const opEmail = `operator-${stamp}@ops.example`;
  const opPassword = "operator-password-1";
  const personEmail = `pat-${stamp}@customer.example`;
  const orgName = `Pat Shop ${stamp}`;
  const { base, mailDir } = await t.startServer("operator", {
    env: { SERVICE_SUPERADMIN_EMAILS: opEmail },
    database: t.databaseFor("operator"),
  });

  // The operator registers and confirms the address through the mailed link.
  const reg = await t.api(base, "POST", "/v1/auth/register", {
    body: { email: opEmail, password: opPassword, name: "Olga Operator", orgName: `Operators ${stamp}` },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const opContext = await t.browser.createBrowserContext();
  const verifyPage = t.watch(await opContext.newPage(), "operator verify");
  await verifyPage.goto(base + (await t.mailedLink(mailDir, /http:\/\/\S+\/verify-email#token=[0-9a-f]+/)));
  await verifyPage.waitForFunction(() => document.querySelector("main")?.textContent.includes("Your address is confirmed"));
  await verifyPage.close();

  // A person joins the waitlist on the console's page.
  const personContext = await t.browser.createBrowserContext();
  const person = t.watch(await personContext.newPage(), "person");
  await person.setViewport({ width: 1280, height: 860 });
  await person.goto(base + "/waitlist");
  await person.waitForSelector('input[name="email"]');
  await person.type('input[name="name"]', "Pat Person");
  await person.type('input[name="email"]', personEmail);
  await person.type('input[name="orgName"]', orgName);
  await person.type('textarea[name="useCase"]', "Crash reports from our shop");
  await person.click('button[type="submit"]');
  await person.waitForFunction(() => !document.querySelector("main form") && document.querySelector('main [role="status"]'));

  // The operator signs in and opens the operator area from the header.
  const op = t.watch(await t.signInPage(opContext, base, opEmail, opPassword), "operator");
  await op.waitForSelector("#nav-operator:not([hidden])");
  await op.click('nav a[href="/operator"]');
  await t.settled(op);
  await op.waitForSelector("#operator-counts");
  assert.equal((await op.$$('[data-series] svg rect')).length, 90, "30 days of users, organizations and bugs");
  const pending = await op.$eval("#operator-counts", (e) => e.textContent);
  assert.match(pending, /Waitlist pending\s*[1-9]/, "the pending entry is counted");
  await op.screenshot({ path: join(t.shotDir, "operator-overview.png") });

  // The waitlist: approve the entry.
  await op.click('nav.tabs a[href="/operator/waitlist"]');
  const row = `tr[data-entry="${personEmail}"]`;
  await op.waitForSelector(row);
  await op.evaluate((sel) => [...document.querySelectorAll(`${sel} button`)].find((b) => b.textContent === "Approve").click(), row);
  await op.waitForFunction((sel) => document.querySelector(`${sel} .badge`)?.textContent === "approved", {}, row);
  await op.screenshot({ path: join(t.shotDir, "operator-waitlist.png") });

  // The person completes signup through the mailed approval link.
  await person.goto(base + (await t.mailedLink(mailDir, /http:\/\/\S+\/signup#token=[0-9a-f]+/)));
  await person.waitForFunction((name) => document.querySelector("main h1")?.textContent === `Welcome to ${name}`, {}, orgName);
  await person.type('input[name="password"]', "pat-password-12");
  await Promise.all([person.waitForSelector("#capture-key"), person.click('button[type="submit"]')]);

  // The operator finds the customer and starts a support session on it.
  await op.click('nav.tabs a[href="/operator/customers"]');
  await op.waitForSelector('input[name="search"]');
  await op.type('input[name="search"]', orgName);
  await op.click('form.filters button[type="submit"]');
  await op.waitForFunction((name) => [...document.querySelectorAll("tr[data-customer] a")].some((a) => a.textContent === name), {}, orgName);
  const orgId = await op.$eval("tr[data-customer]", (e) => e.dataset.customer);
  // Found and clicked in one step: the list may draw itself again (the search
  // field's debounced reload) between a lookup and a click.
  await op.waitForFunction((id) => {
    const a = document.querySelector(`tr[data-customer="${id}"] a`);
    if (a) a.click();
    return Boolean(a);
  }, {}, orgId);
  await op.waitForFunction((name) => document.querySelector("main h1")?.textContent === name, {}, orgName);
  assert.ok(await op.$eval("#customer-team", (e) => e.textContent.includes("Pat Person")), "the detail lists the team");
  await Promise.all([op.waitForSelector("#bug-count"), op.click(`button[data-support="${orgId}"]`)]);
  await t.settled(op);
  const banner = async () =>
    op.$eval("#support-banner", (e) => ({ hidden: e.hidden, text: e.textContent, background: getComputedStyle(e).backgroundColor }));
  let shown = await banner();
  assert.equal(shown.hidden, false, "the banner is shown");
  assert.match(shown.text, new RegExp(`^Support session in ${orgName} as admin, ends \\d\\d:\\d\\dEnd$`));
  assert.equal(shown.background, "rgb(180, 35, 24)", "the banner is red");
  await op.screenshot({ path: join(t.shotDir, "support-banner.png") });
  // Every page while it lasts, acting in the customer's organization.
  await op.click('nav a[href="/team"]');
  await op.waitForSelector(`tr[data-member="${personEmail}"]`);
  assert.equal((await banner()).hidden, false, "the banner stays on every page");
  await op.click('nav a[href="/projects"]');
  await t.settled(op);
  assert.equal((await banner()).hidden, false, "the banner stays on every page");

  // The organization's admin sees the session and its requests.
  await person.goto(base + "/team");
  await person.waitForSelector("#support-access tr[data-session]");
  const record = await person.$eval("#support-access", (e) => e.textContent);
  assert.ok(record.includes(opEmail), "the operator is named");
  assert.ok(record.includes("active"), "the session is active");
  const requests = await person.$eval("#support-access tr[data-session] td:nth-child(3)", (e) => Number(e.textContent));
  assert.ok(requests >= 3, `the requests are recorded (${requests})`);
  await person.screenshot({ path: join(t.shotDir, "support-access.png") });

  // End: back to the operator area, no banner; the record says ended.
  await op.click("#support-end");
  await op.waitForFunction(() => location.pathname === "/operator" && document.querySelector("#support-banner").hidden);
  await t.settled(op);
  await person.reload();
  await person.waitForSelector("#support-access tr[data-session]");
  assert.ok(await person.$eval("#support-access tr[data-session]", (e) => e.textContent.includes("ended")), "the session shows as ended");
  await opContext.close();
  await personContext.close();
}
