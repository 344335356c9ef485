// Applications in the console (issue 30 items 2, 3 and 6): an admin opens
// "Applications" from the header, adds an application, an installation and a
// build through the forms; the installation waits for its first capture;
// a browser-SDK capture naming it arrives through the API and the page shows
// the receipt live (no reload): time, SDK, source, platform and a link to
// the bug. A reload shows the same; the API agrees.
import assert from "node:assert/strict";
import { join } from "node:path";

export default async function applications(t) {
  const stamp = Date.now().toString(36);
  const email = `apps-${stamp}@shop.example`;
  const password = "applications-password-1";
  const { base } = await t.startServer("applications", {
    env: { SERVICE_REQUIRE_EMAIL_VERIFICATION: "0" },
    database: t.databaseFor("applications"),
  });
  const reg = await t.api(base, "POST", "/v1/auth/register", {
    body: { email, password, name: "Ada Apps", orgName: `App Shop ${stamp}` },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project.id;

  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "applications admin");
  await page.waitForSelector("#nav-applications:not([hidden])");
  await page.click('nav a[href="/applications"]');
  await t.settled(page);
  await page.waitForSelector("#application-form");

  // A new application through the form.
  await page.type('#application-form input[name="name"]', "Shop web");
  await page.type('#application-form input[name="identifier"]', "https://shop.example");
  await page.click('#application-form button[type="submit"]');
  await page.waitForSelector("section.application[data-application]");
  const appId = await page.$eval("section.application", (s) => s.dataset.application);
  const apps = await t.api(base, "GET", `/v1/applications/projects/${project}`, { token, org });
  assert.equal(apps.status, 200);
  assert.deepEqual(
    apps.body.items.map((a) => [a.id, a.name, a.identifier]),
    [[appId, "Shop web", "https://shop.example"]],
  );

  // An installation, waiting for its first capture.
  await page.type("section.application .add-installation input[name=label]", "Checkout kiosk");
  await page.click("section.application .add-installation button[type=submit]");
  await page.waitForSelector("section.application tr[data-installation]");
  const inst = await page.$eval("section.application tr[data-installation]", (r) => ({ id: r.dataset.installation, state: r.dataset.state, text: r.textContent }));
  assert.equal(inst.state, "waiting");
  assert.match(inst.text, /Checkout kiosk/);
  assert.match(inst.text, /Waiting/);

  // A build.
  const sha = "ab".repeat(32);
  await page.type("section.application .add-build input[name=sourceRevision]", "9f1c2ab");
  await page.type("section.application .add-build input[name=artifactSha256]", sha);
  await page.click("section.application .add-build button[type=submit]");
  await page.waitForSelector("section.application tr[data-build]");
  assert.match(await page.$eval("section.application tr[data-build]", (r) => r.textContent), new RegExp(sha));

  // A capture of the browser SDK naming the installation: shown live.
  const ingest = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: {
      title: `Pay button throws ${stamp}`,
      url: "https://shop.example/pay",
      platform: "web",
      metadata: {
        capture: { applicationId: appId, installationId: inst.id, sdkName: "service-browser", sdkVersion: "2.3.1", source: "automatic" },
      },
    },
  });
  assert.equal(ingest.status, 201, JSON.stringify(ingest.body));
  const row = `tr[data-installation="${inst.id}"]`;
  await page.waitForSelector(`${row}[data-state="capture_received"] .capture-state[data-state="capture_received"]`, { timeout: 20000 });
  const shown = await page.$eval(row, (r) => ({ text: r.textContent, bug: r.querySelector("a.capture-bug")?.getAttribute("href") }));
  assert.match(shown.text, /First capture received/);
  assert.match(shown.text, /service-browser 2\.3\.1 · automatic · web/);
  assert.equal(shown.bug, `/bugs/${ingest.body.id}`);
  await page.screenshot({ path: join(t.shotDir, "applications.png") });

  // The API says the same; a reload shows the receipt at once.
  const status = await t.api(base, "GET", `/v1/applications/projects/${project}/${appId}/installations/${inst.id}/capture-status`, { token, org });
  assert.equal(status.status, 200);
  assert.equal(status.body.state, "capture_received");
  assert.equal(status.body.firstCapture.occurrenceId, ingest.body.occurrenceId);
  await page.reload();
  await t.settled(page);
  await page.waitForSelector(`${row} .capture-state[data-state="capture_received"]`);
  await context.close();
}
