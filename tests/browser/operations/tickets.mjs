// The ticket board and the portfolio (issue 28 items 4 and 5): an admin
// registers (no mail provider: no verification), opens Tickets from the
// header, adds two tickets with the form, moves one down its column and then
// across the board with the card's buttons (no dragging), reloads, and finds
// both where they were left (column and order, also through the API); the
// portfolio page lists the organization with its totals.
import assert from "node:assert/strict";
import { join } from "node:path";

// "status:title" of every card, column by column, top to bottom.
function boardOf(page) {
  return page.$$eval("#board section.board-column", (cols) =>
    cols.flatMap((c) => [...c.querySelectorAll("li.ticket")].map((li) => `${c.dataset.status}:${li.querySelector(".ticket-title").textContent}`)),
  );
}

async function cardId(page, title) {
  return page.$$eval(
    "li.ticket",
    (lis, wanted) => lis.find((li) => li.querySelector(".ticket-title").textContent === wanted)?.dataset.id,
    title,
  );
}

// Clicks the card's move button and waits until the card is at `status`/`position`.
async function move(page, id, arrow, status, position) {
  await page.click(`li.ticket[data-id="${id}"] button[data-move="${arrow}"]`);
  await page.waitForSelector(`section[data-status="${status}"] li.ticket[data-id="${id}"][data-position="${position}"]`);
}

export default async function tickets(t) {
  const stamp = Date.now().toString(36);
  const email = `tickets-${stamp}@board.example`;
  const password = "tickets-password-1";
  const orgName = `Board Shop ${stamp}`;
  const { base } = await t.startServer("tickets", { env: { SERVICE_MAIL_URL: "" }, database: t.databaseFor("tickets") });
  const reg = await t.api(base, "POST", "/v1/auth/register", { body: { email, password, name: "Tia Tickets", orgName } });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));

  const context = await t.browser.createBrowserContext();
  const page = t.watch(await t.signInPage(context, base, email, password), "tickets admin");
  await page.click('nav a[href="/tickets"]');
  await t.settled(page);
  await page.waitForSelector("#ticket-form");
  assert.equal(await page.$eval("main h1", (e) => e.textContent), "Tickets");
  assert.deepEqual(await boardOf(page), []);

  // Two tickets through the form: each lands at the end of Backlog.
  for (const [title, description] of [
    ["Write the release notes", "For 3.2.1"],
    ["Fix the checkout crash", "Customers cannot pay"],
  ]) {
    await page.type('#ticket-form input[name="title"]', title);
    await page.type('#ticket-form textarea[name="description"]', description);
    await page.click('#ticket-form button[type="submit"]');
    await page.waitForFunction((wanted) => [...document.querySelectorAll("li.ticket .ticket-title")].some((e) => e.textContent === wanted), {}, title);
  }
  assert.deepEqual(await boardOf(page), ["backlog:Write the release notes", "backlog:Fix the checkout crash"]);
  const notes = await cardId(page, "Write the release notes");
  const crash = await cardId(page, "Fix the checkout crash");
  assert.ok(notes && crash);
  // The first card cannot go up or left; the last cannot go down.
  assert.equal(await page.$eval(`li.ticket[data-id="${notes}"] button[data-move="↑"]`, (b) => b.disabled), true);
  assert.equal(await page.$eval(`li.ticket[data-id="${notes}"] button[data-move="←"]`, (b) => b.disabled), true);
  assert.equal(await page.$eval(`li.ticket[data-id="${crash}"] button[data-move="↓"]`, (b) => b.disabled), true);

  // Down its column, then across the board to In progress.
  await move(page, notes, "↓", "backlog", 1);
  assert.deepEqual(await boardOf(page), ["backlog:Fix the checkout crash", "backlog:Write the release notes"]);
  await move(page, crash, "→", "todo", 0);
  await move(page, crash, "→", "in_progress", 0);
  await move(page, notes, "→", "todo", 0);
  assert.deepEqual(await boardOf(page), ["todo:Write the release notes", "in_progress:Fix the checkout crash"]);
  await page.screenshot({ path: join(t.shotDir, "tickets-board.png") });

  // After a reload the cards are where they were left.
  await page.reload();
  await t.settled(page);
  await page.waitForSelector("#board");
  assert.deepEqual(await boardOf(page), ["todo:Write the release notes", "in_progress:Fix the checkout crash"]);
  const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("service.session")).accessToken);
  const listed = await t.api(base, "GET", "/v1/tickets", { token, org: reg.body.org.id });
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.deepEqual(
    listed.body.tickets.map((x) => [x.status, x.position, x.title]),
    [
      ["todo", 0, "Write the release notes"],
      ["in_progress", 0, "Fix the checkout crash"],
    ],
  );

  // The portfolio lists the organization and the totals.
  await page.click('nav a[href="/portfolio"]');
  await t.settled(page);
  await page.waitForSelector("#portfolio");
  const rows = await page.$$eval("#portfolio tbody tr", (trs) => trs.map((tr) => [tr.dataset.org, tr.querySelector("td strong").textContent, tr.children[1].textContent]));
  assert.deepEqual(rows, [[reg.body.org.id, orgName, "admin"]]);
  assert.match(await page.$eval("#portfolio-totals", (e) => e.textContent), /1 organization/);
  await page.screenshot({ path: join(t.shotDir, "tickets-portfolio.png") });
  await context.close();
}
