// Verification in the console (issue 30 items 4 and 6): an organization on
// pro has an application, an installation, a build and a bug captured by
// that application on the web. Its admin opens "Verification" from the
// header, enrolls a runner (an Ed25519 public key made here with node's
// crypto: this file is the runner) and a device through the forms. An agent
// token then claims the bug, asks a challenge, submits a receipt signed over
// its RFC 8785 canonical JSON, and promotes: the bug's page shows "Verified
// fixed" and the verified receipt. Revoking the runner in the console makes
// the label unproven and the receipt historical on the bug page.
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { join } from "node:path";

// RFC 8785 for what a submission holds (ASCII member names, strings,
// arrays, objects; no numbers).
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

export default async function verification(t) {
  const stamp = Date.now().toString(36);
  const opEmail = `operator-v-${stamp}@ops.example`;
  const email = `verify-${stamp}@shop.example`;
  const password = "verification-password-1";
  const { base, mailDir } = await t.startServer("verification", {
    env: { SERVICE_SUPERADMIN_EMAILS: opEmail, SERVICE_REQUIRE_EMAIL_VERIFICATION: "0" },
    database: t.databaseFor("verification"),
  });
  const op = await t.api(base, "POST", "/v1/auth/register", {
    body: { email: opEmail, password: "operator-password-1", name: "Olga Operator", orgName: `Operators V ${stamp}` },
  });
  assert.equal(op.status, 201, JSON.stringify(op.body));
  const link = await t.mailedLink(mailDir, /http:\/\/\S+\/verify-email#token=[0-9a-f]+/, { to: opEmail });
  assert.equal((await t.api(base, "POST", "/v1/auth/verify-email", { body: { token: link.split("#token=")[1] } })).status, 200);

  const reg = await t.api(base, "POST", "/v1/auth/register", {
    body: { email, password, name: "Vera Verify", orgName: `Verified Shop ${stamp}` },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken;
  const org = reg.body.org.id;
  const projectId = reg.body.project.id;
  assert.equal((await t.api(base, "PATCH", `/v1/admin/customers/${org}`, { token: op.body.accessToken, body: { plan: "pro" } })).status, 200);

  // The application, its installation and build, and a bug it captured.
  const apps = `/v1/applications/projects/${projectId}`;
  const app = await t.api(base, "POST", apps, { token, org, body: { requestId: randomUUID(), name: "Shop web", identifier: "https://shop.example" } });
  assert.equal(app.status, 201, JSON.stringify(app.body));
  const appId = app.body.application.id;
  const inst = await t.api(base, "POST", `${apps}/${appId}/installations`, { token, org, body: { requestId: randomUUID(), label: "Storefront" } });
  assert.equal(inst.status, 201, JSON.stringify(inst.body));
  const artifact = createHash("sha256").update(`build-${stamp}`).digest("hex");
  const build = await t.api(base, "POST", `${apps}/${appId}/builds`, { token, org, body: { requestId: randomUUID(), sourceRevision: "9f1c2ab", artifactSha256: artifact } });
  assert.equal(build.status, 201, JSON.stringify(build.body));
  const buildId = build.body.build.id;
  const ingest = await t.api(base, "POST", "/v1/ingest", {
    headers: { "X-Service-Key": reg.body.apiKey },
    body: {
      title: "Checkout total is wrong",
      url: "https://shop.example/checkout",
      platform: "web",
      events: [{ type: "error", timestamp: Date.now(), data: { name: "TypeError", message: "total is undefined" } }],
      metadata: {
        capture: {
          applicationId: appId,
          installationId: inst.body.installation.id,
          sdkName: "service-browser",
          sdkVersion: "1.0.0",
          source: "automatic",
          framework: "react",
          runtime: "browser",
          osFamily: "macos",
        },
      },
    },
  });
  assert.equal(ingest.status, 201, JSON.stringify(ingest.body));
  const bugId = ingest.body.id;

  // The admin enrolls a runner and a device in the console.
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pem = publicKey.export({ type: "spki", format: "pem" });
  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "verification admin");
  await page.waitForSelector("#nav-verification:not([hidden])");
  await page.click('nav a[href="/verification"]');
  await t.settled(page);
  await page.waitForSelector("#runner-form");
  await page.type('#runner-form input[name="name"]', "CI web runner");
  await page.$eval('#runner-form textarea[name="publicKeyPem"]', (e, v) => (e.value = v), pem);
  await page.click('#runner-form button[type="submit"]');
  await page.waitForSelector("#runners tbody tr[data-id]");
  const runner = await page.$eval("#runners tbody tr[data-id]", (r) => ({ id: r.dataset.id, state: r.dataset.state, text: r.textContent }));
  assert.equal(runner.state, "active");
  assert.match(runner.text, /CI web runner/);
  assert.match(runner.text, /SHA256:/);
  await page.waitForSelector("form#device-form");
  await page.type('#device-form input[name="name"]', "Chrome in the lab");
  await page.select('#device-form select[name="runtime"]', "web");
  await page.type('#device-form input[name="deviceIdentifierSha256"]', "cd".repeat(32));
  await page.type('#device-form input[name="osVersion"]', "macOS 14");
  await page.click('#device-form button[type="submit"]');
  await page.waitForSelector("#devices tbody tr[data-id]");
  const enrolled = await t.api(base, "GET", `/v1/agent-work/verification/enrollment?projectId=${projectId}`, { token, org });
  assert.equal(enrolled.status, 200);
  assert.equal(enrolled.body.devices.length, 1);
  assert.ok(!JSON.stringify(enrolled.body).includes("PRIVATE"));
  await page.screenshot({ path: join(t.shotDir, "verification-enrollment.png") });

  // An agent claims, asks a challenge, submits a signed receipt, promotes.
  const pat = await t.api(base, "POST", "/v1/org/agent-pats", {
    token,
    org,
    body: {
      name: "verifier",
      scopes: ["claim_issue", "submit_verification", "read_verification"],
      expiresAt: new Date(Date.now() + 7 * 86400000).toISOString(),
      projectGrants: [{ projectId }],
    },
  });
  assert.equal(pat.status, 201, JSON.stringify(pat.body));
  const agent = pat.body.token;
  const claim = await t.api(base, "POST", "/v1/agent-work/claims", { token: agent, body: { commandId: randomUUID(), projectId, issueId: bugId } });
  assert.equal(claim.status, 201, JSON.stringify(claim.body));
  const c = claim.body.claim;
  const lease = { projectId, issueId: bugId, claimId: c.claimId, generation: c.generation, fencingToken: c.fencingToken };
  const challenge = await t.api(base, "POST", "/v1/agent-work/verification/challenges", { token: agent, body: { commandId: randomUUID(), ...lease } });
  assert.equal(challenge.status, 201, JSON.stringify(challenge.body));
  const submission = {
    challengeId: challenge.body.challenge.challengeId,
    nonce: challenge.body.challenge.nonce,
    projectId,
    issueId: bugId,
    applicationId: appId,
    buildId,
    artifactSha256: artifact,
    runtime: "web",
    tests: [{ name: "checkout shows the total", outcome: "passed" }],
    measuredAt: new Date().toISOString(),
  };
  const signature = sign(null, Buffer.from(canonical(submission)), privateKey).toString("base64");
  const receipt = await t.api(base, "POST", "/v1/agent-work/verification/receipts", {
    token: agent,
    body: { commandId: randomUUID(), projectId, issueId: bugId, submission, proof: { runnerId: runner.id, signature } },
  });
  assert.equal(receipt.status, 201, JSON.stringify(receipt.body));
  assert.equal(receipt.body.receipt.status, "verified");
  const promoted = await t.api(base, "POST", "/v1/agent-work/verification/promote", {
    token: agent,
    body: { commandId: randomUUID(), ...lease, targetBuilds: [buildId], receiptIds: [receipt.body.receipt.receiptId] },
  });
  assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
  assert.equal(promoted.body.claim.status, "completed");

  // The bug page shows the verified-fixed state and the receipt.
  await page.goto(`${base}/bugs/${bugId}`);
  await t.settled(page);
  await page.waitForSelector('#verification-state[data-state="verified_fixed"]');
  const row = await page.$eval("#verification-receipts tbody tr", (r) => ({ status: r.dataset.status, text: r.textContent }));
  assert.equal(row.status, "verified");
  assert.match(row.text, /1\/1 passed/);
  assert.match(row.text, /current/);
  await page.screenshot({ path: join(t.shotDir, "verification-bug.png") });

  // Revoking the runner in the console: the label is unproven.
  await page.goto(`${base}/verification`);
  await t.settled(page);
  await page.waitForSelector('button[aria-label="Revoke CI web runner"]');
  await page.click('button[aria-label="Revoke CI web runner"]');
  await page.waitForFunction((id) => document.querySelector(`#runners tr[data-id="${id}"]`)?.dataset.state === "revoked", {}, runner.id);
  await page.goto(`${base}/bugs/${bugId}`);
  await t.settled(page);
  await page.waitForSelector('#verification-state[data-state="unproven"]');
  assert.match(await page.$eval("#verification-receipts tbody tr", (r) => r.textContent), /historical/);
  const bug = await t.api(base, "GET", `/v1/bugs/${bugId}`, { token, org });
  assert.equal(bug.body.active_verification_promotion_id, null);
  assert.equal(bug.body.verification.reason, "runner_revoked");
  await context.close();
}
