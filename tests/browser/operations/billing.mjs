// Billing (issue 28 item 3): a fake Stripe-compatible payments API runs in
// this section (node:http on 127.0.0.1, recording the form-encoded calls);
// the server points SERVICE_BILLING_* at it. An admin registers (no mail
// provider: no verification), opens Billing from the header, sees the
// budget's validation message, sets a budget of 500 cents and clicks "Buy
// 2,000 credits": the 402 figures (budget 5.00, spent 0.00, purchase 10.00)
// are shown and nothing reached the provider. With the budget at 0 the same
// click goes to the provider's hosted page; the provider's signed event
// (HMAC computed here) grants the credits, which the page then shows.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";

function fakePayments() {
  const calls = [];
  let n = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const url = new URL(req.url, "http://x");
      if (req.method !== "POST") {
        // The hosted page (and the browser's favicon request beside it).
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end(`<!doctype html><title>Fake checkout</title><h1 id="fake-checkout">Pay ${url.pathname.slice(5)}</h1>`);
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      calls.push({ path: url.pathname, form, authorization: req.headers.authorization, idempotencyKey: req.headers["idempotency-key"] });
      const prefix = url.pathname === "/v1/customers" ? "cus_" : url.pathname === "/v1/billing_portal/sessions" ? "bps_" : "cs_";
      const id = `${prefix}browser_${++n}`;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ id, url: `http://127.0.0.1:${server.address().port}/pay/${id}` }));
    });
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, calls, base: `http://127.0.0.1:${server.address().port}` })));
}

export default async function billing(t) {
  const stamp = Date.now().toString(36);
  const email = `billing-${stamp}@shop.example`;
  const password = "billing-password-1";
  const webhookSecret = "whsec_browser_billing";
  const fake = await fakePayments();
  try {
    const { base } = await t.startServer("billing", {
      env: {
        SERVICE_MAIL_URL: "",
        SERVICE_BILLING_API_URL: fake.base,
        SERVICE_BILLING_SECRET_KEY: "sk_test_browser_billing",
        SERVICE_BILLING_WEBHOOK_SECRET: webhookSecret,
      },
      database: t.databaseFor("billing"),
    });
    const reg = await t.api(base, "POST", "/v1/auth/register", {
      body: { email, password, name: "Bea Billing", orgName: `Billing Shop ${stamp}` },
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));

    const context = await t.browser.createBrowserContext();
    const page = t.watch(await t.signInPage(context, base, email, password), "billing admin");
    await page.waitForSelector("#nav-billing:not([hidden])");
    await page.click('nav a[href="/billing"]');
    await t.settled(page);
    await page.waitForSelector("#budget-form");
    assert.equal(await page.$eval("#billing-prepaid", (e) => e.textContent), "0");

    // A budget out of range: the server's validation message shows on the form.
    const field = 'input[name="monthlyBudgetCents"]';
    await page.$eval(field, (e) => (e.value = ""));
    await page.type(field, "10000001");
    await page.click('#budget-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#budget-form [role="alert"]')?.textContent.includes("10000000"));

    // A budget of 500 cents.
    await page.$eval(field, (e) => (e.value = ""));
    await page.type(field, "500");
    await page.click('#budget-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector("#budget-form .saved")?.textContent.includes("saved"));
    assert.equal(await page.$eval('#budget-form [role="alert"]', (e) => e.textContent), "");

    // Buying 2,000 credits (1000 cents) would pass it: the three figures.
    await page.click("#buy-credits");
    await page.waitForSelector("#budget-exceeded");
    const figures = await page.$$eval("#budget-exceeded dd", (dds) => dds.map((d) => [d.textContent, d.dataset.cents]));
    assert.deepEqual(figures, [
      ["5.00", "500"],
      ["0.00", "0"],
      ["10.00", "1000"],
    ]);
    const text = await page.$eval("#budget-exceeded", (e) => e.textContent);
    assert.match(text, /exceed your monthly budget/);
    assert.equal(fake.calls.length, 0, "the budget check comes before the provider");
    await page.screenshot({ path: join(t.shotDir, "billing-budget-exceeded.png") });

    // Without a budget the click goes to the provider's hosted page.
    await page.$eval(field, (e) => (e.value = ""));
    await page.type(field, "0");
    await page.click('#budget-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#budget-form input[name="monthlyBudgetCents"]').value === "0" && document.querySelector("#budget-form .saved"));
    // The server asks the provider (the fake in this process) for a session first: on a loaded 2-core CI
    // machine with another browser test beside it this took over the default 30 s twice (PostgreSQL half).
    await Promise.all([page.waitForNavigation({ timeout: 120_000 }), page.click("#buy-credits")]);
    await page.waitForSelector("#fake-checkout");
    assert.equal(fake.calls.length, 1);
    const call = fake.calls[0];
    assert.equal(call.path, "/v1/checkout/sessions");
    assert.equal(call.form.mode, "payment");
    assert.equal(call.form["line_items[0][price_data][unit_amount]"], "1000");
    assert.equal(call.form["metadata[pack]"], "credits");
    assert.equal(call.authorization, "Bearer sk_test_browser_billing");
    assert.ok(call.idempotencyKey);
    const orgId = call.form["metadata[orgId]"];
    assert.ok(orgId);

    // The provider reports the paid session (signed here); the page shows the credits.
    const event = JSON.stringify({
      id: `evt_${stamp}`,
      type: "checkout.session.completed",
      data: { object: { id: "cs_browser_1", mode: "payment", payment_status: "paid", amount_total: 1000, metadata: { orgId, pack: "credits" } } },
    });
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", webhookSecret).update(`${ts}.${event}`).digest("hex");
    // Sent as raw text: the signature covers these exact bytes.
    const res = await fetch(base + "/v1/billing/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": `t=${ts},v1=${sig}` },
      body: event,
    });
    assert.equal(res.status, 200, await res.text());
    await page.goto(base + "/billing?checkout=success");
    await t.settled(page);
    await page.waitForSelector("#billing-prepaid");
    assert.equal(await page.$eval("#billing-prepaid", (e) => e.textContent), "2000");
    assert.match(await page.$eval("main", (e) => e.textContent), /Credit pack bought/);
    await page.screenshot({ path: join(t.shotDir, "billing.png") });
    await context.close();
  } finally {
    fake.server.close();
  }
}
