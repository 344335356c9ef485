// The agent handoff in the console (issue 29 items 3 and 6): an admin with
// an agent integration pointing at a local receiver opens a bug, clicks
// "Hand to an agent", sees the agent channel's row and the state "Agent
// notified", and the receiver gets the signed agent_notify; on the
// project's page the admin turns auto-notify on (minimum severity
// critical), which the settings API then reads back, and a new critical
// bug is handed over by itself.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";

// A local agent receiver: records each POST with its signature checked.
function receiver() {
  const got = [];
  let secret = "";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const sig = String(req.headers["x-service-signature-256"] || "");
      const m = sig.match(/^t=(\d+),v1=([0-9a-f]{64})/);
      const ok = !!m && createHmac("sha256", secret).update(`${m[1]}.${body}`).digest("hex") === m[2];
      let parsed = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = null;
      }
      got.push({ event: req.headers["x-service-event"], body: parsed, ok });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/agent`,
        got,
        setSecret: (s) => (secret = s),
        close: () => server.close(),
      }),
    ),
  );
}

async function until(pred, what, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export default async function handoff(t) {
  const stamp = Date.now().toString(36);
  const email = `handoff-${stamp}@agents.example`;
  const password = "handoff-password-1";
  const { base } = await t.startServer("handoff", { env: { SERVICE_MAIL_URL: "" }, database: t.databaseFor("handoff") });
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Hana Handoff", orgName: `Handoff Shop ${stamp}` } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const project = reg.body.project.id;
  const agent = await receiver();
  try {
    const created = await t.api(base, "POST", "/v1/integrations", {
      token,
      org,
      body: { projectId: project, type: "agent", name: "Local agent", config: { url: agent.url }, events: ["agent_notify"] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    agent.setSecret(created.body.signingSecret);
    const bug = await t.api(base, "POST", "/v1/ingest", {
      headers: { "X-Service-Key": reg.body.apiKey },
      body: { title: `Checkout button does nothing ${stamp}`, severity: "high", url: "https://shop.example/cart" },
    });
    assert.equal(bug.status, 201, JSON.stringify(bug.body));

    const context = await t.browser.createBrowserContext();
    const page = t.watch(await t.signInPage(context, base, email, password), "handoff admin");
    await page.goto(`${base}/bugs/${bug.body.id}`);
    await t.settled(page);
    await page.waitForSelector("#hand-to-agent");
    assert.equal(await page.$eval("#agent-state", (e) => e.dataset.state), "none");
    await page.click("#hand-to-agent");
    await page.waitForSelector('#agent-channels li[data-channel="agent"]');
    assert.equal(await page.$eval("#agent-state", (e) => e.dataset.state), "notified");
    assert.match(await page.$eval('#agent-channels li[data-channel="agent"]', (e) => e.textContent), /Local agent/);
    assert.match(await page.$eval("#agent-history", (e) => e.textContent), /Handed over \(manual\): agent/);
    assert.doesNotMatch(await page.$eval("#agent-handoff", (e) => e.textContent), /null|undefined/);
    await until(() => agent.got.some((g) => g.event === "agent_notify"), "the agent_notify delivery");
    const sent = agent.got.find((g) => g.event === "agent_notify");
    assert.ok(sent.ok, "agent_notify is signed with the integration's secret");
    assert.equal(sent.body.trigger, "manual");
    assert.equal(sent.body.bugId, bug.body.id);
    // Once sent, the row reads delivered after a reload.
    await until(async () => {
      await page.reload();
      await t.settled(page);
      await page.waitForSelector("#agent-channels");
      return (await page.$eval('#agent-channels li[data-channel="agent"]', (e) => e.dataset.status)) === "delivered";
    }, "the delivered row");
    await page.screenshot({ path: join(t.shotDir, "agent-handoff.png") });

    // Auto-notify on the project's page.
    await page.goto(`${base}/projects/${project}`);
    await t.settled(page);
    await page.waitForSelector("#auto-notify");
    assert.equal(await page.$eval("#auto-notify", (e) => e.checked), false);
    assert.equal(await page.$eval("#auto-notify-min", (e) => e.value), "high");
    await page.click("#auto-notify");
    await page.select("#auto-notify-min", "critical");
    await page.click("#save-agent-settings");
    await page.waitForFunction(() => document.querySelector("#agent-settings-status")?.textContent === "Saved");
    const settings = await t.api(base, "GET", `/v1/projects/${project}/agent-settings`, { token, org });
    assert.deepEqual(settings.body.settings, { projectId: project, autoNotify: true, minSeverity: "critical" });
    await page.reload();
    await t.settled(page);
    await page.waitForSelector("#auto-notify");
    assert.equal(await page.$eval("#auto-notify", (e) => e.checked), true);

    const urgent = await t.api(base, "POST", "/v1/ingest", {
      headers: { "X-Service-Key": reg.body.apiKey },
      body: { title: `Payments fail ${stamp}`, severity: "critical", url: "https://shop.example/pay" },
    });
    assert.equal(urgent.status, 201);
    await until(() => agent.got.some((g) => g.event === "agent_notify" && g.body && g.body.trigger === "auto"), "the auto agent_notify");
    await context.close();
  } finally {
    agent.close();
  }
}
