// The billing page (admins): credit balances, the monthly budget, the card on
// file, buying a 2,000-credit pack and the recent ledger rows
// (GET /v1/billing/subscription, GET/PUT /v1/billing/budget,
// POST /v1/billing/card-setup-session, /portal, /create-checkout-session).
import { ApiError, actionForm, api, currentQuery, errorText, h, input, show, table } from "./core.js";

function money(cents) {
  return (Number(cents) / 100).toFixed(2);
}
function section(title, ...children) {
  return h("section", { class: "card block" }, h("h2", {}, title), ...children);
}
const KINDS = {
  included_grant: "Monthly included credits",
  included_expiry: "Included credits expired",
  pack_purchase: "Credit pack bought",
  metered_read: "Metered agent read",
  opening_balance: "Opening balance",
};

// Goes to the provider's hosted page the API returned.
async function toProvider(path, body, out) {
  out.textContent = "…";
  try {
    const r = await api(path, { method: "POST", body });
    out.textContent = "";
    location.assign(r.url);
  } catch (e) {
    out.textContent = errorText(e);
    throw e;
  }
}

function budgetExceeded(body) {
  return h(
    "div",
    { class: "card error-box", id: "budget-exceeded", role: "alert" },
    h("p", {}, "This purchase would exceed your monthly budget."),
    h(
      "dl",
      { class: "figures" },
      h("dt", {}, "Monthly budget"),
      h("dd", { "data-cents": String(body.monthlyBudgetCents) }, money(body.monthlyBudgetCents)),
      h("dt", {}, "Spent this month"),
      h("dd", { "data-cents": String(body.monthToDateSpendCents) }, money(body.monthToDateSpendCents)),
      h("dt", {}, "This purchase"),
      h("dd", { "data-cents": String(body.chargeCents) }, money(body.chargeCents)),
    ),
    h("p", { class: "muted" }, "Raise the budget above to buy more this month."),
  );
}

export async function billing() {
  const [sub, budget] = await Promise.all([api("/v1/billing/subscription"), api("/v1/billing/budget")]);
  const q = currentQuery();
  const notes = [];
  if (q.get("checkout") === "success") notes.push("Payment received: the credits appear once the payment provider confirms it.");
  if (q.get("card") === "saved") notes.push("Card saved: it shows here once the payment provider confirms it.");
  const configured = sub.billingConfigured;

  const credits = section(
    "Credits",
    h(
      "dl",
      { class: "figures" },
      h("dt", {}, "Plan"),
      h("dd", { id: "billing-plan" }, sub.plan),
      h("dt", {}, "Balance"),
      h("dd", { id: "billing-balance" }, String(sub.credits.balance)),
      h("dt", {}, "Included this month"),
      h("dd", { id: "billing-included" }, `${sub.credits.included}${sub.credits.includedMonthly ? ` of ${sub.credits.includedMonthly}` : ""}`),
      h("dt", {}, "Prepaid (never expire)"),
      h("dd", { id: "billing-prepaid" }, String(sub.credits.prepaid)),
    ),
  );

  const budgetForm = actionForm(
    { class: "budget-form", id: "budget-form" },
    [
      input("monthlyBudgetCents", "Monthly budget in cents (0: no automatic charge)", "number", {
        value: String(budget.monthlyBudgetCents),
        min: "0",
        max: "10000000",
        step: "1",
      }),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "autoTopUp", checked: budget.autoTopUp }), "Top up automatically (needs a budget and a card)"),
      h("button", { type: "submit" }, "Save budget"),
      h("p", { class: "muted", id: "budget-spend" }, `Spent in ${budget.month}: ${money(budget.monthToDateSpendCents)} (${budget.monthToDateSpendCents} cents)`),
    ],
    async (v, form) => {
      const raw = String(v.monthlyBudgetCents ?? "").trim();
      // The server's rule, checked here first so the message shows without a round trip.
      if (raw !== "" && !(/^\d+$/.test(raw) && Number(raw) <= 10000000)) {
        throw new ApiError(400, { error: "The monthly budget must be a whole number of cents from 0 to 10000000.", code: "VALIDATION_ERROR" });
      }
      const body = { monthlyBudgetCents: raw === "" ? null : Number(raw), autoTopUp: !!v.autoTopUp };
      const saved = await api("/v1/billing/budget", { method: "PUT", body });
      form.querySelector('input[name="monthlyBudgetCents"]').value = String(saved.monthlyBudgetCents);
      form.querySelector('input[name="autoTopUp"]').checked = saved.autoTopUp;
      form.querySelector("#budget-spend").textContent = `Spent in ${saved.month}: ${money(saved.monthToDateSpendCents)} (${saved.monthToDateSpendCents} cents)`;
      form.querySelector('[role="alert"]').textContent = "";
      const ok = form.querySelector(".saved") || h("p", { class: "saved", role: "status" });
      ok.textContent = "Budget saved.";
      form.append(ok);
    },
  );

  const cardOut = h("p", { class: "error", role: "alert" });
  const card = section(
    "Payment method",
    h("p", { id: "billing-card" }, sub.paymentMethodOnFile ? "A card is on file." : "No card on file."),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", id: "add-card", disabled: !configured, onclick: () => toProvider("/v1/billing/card-setup-session", { returnTo: "settings" }, cardOut).catch(() => {}) }, sub.paymentMethodOnFile ? "Replace the card" : "Add a card"),
      sub.hasCustomer ? h("button", { type: "button", class: "secondary", id: "open-portal", disabled: !configured, onclick: () => toProvider("/v1/billing/portal", {}, cardOut).catch(() => {}) }, "Payment history and invoices") : null,
    ),
    cardOut,
  );

  const buyOut = h("div", { id: "buy-result" });
  const buy = section(
    "Buy credits",
    h("p", {}, `A pack of ${sub.pack.credits.toLocaleString("en")} prepaid credits costs ${money(sub.pack.chargeCents)}; prepaid credits never expire.`),
    h(
      "button",
      {
        type: "button",
        id: "buy-credits",
        disabled: !configured,
        onclick: async (e) => {
          e.target.disabled = true;
          buyOut.replaceChildren(h("p", { class: "muted" }, "…"));
          try {
            const r = await api("/v1/billing/create-checkout-session", { method: "POST", body: { pack: "credits" } });
            buyOut.replaceChildren();
            location.assign(r.url);
          } catch (x) {
            if (x instanceof ApiError && x.status === 402 && x.body && x.body.code === "BUDGET_EXCEEDED") buyOut.replaceChildren(budgetExceeded(x.body));
            else buyOut.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(x)));
          } finally {
            e.target.disabled = false;
          }
        },
      },
      `Buy ${sub.pack.credits.toLocaleString("en")} credits`,
    ),
    buyOut,
  );

  const ledger = section(
    "Recent activity",
    sub.ledger.length
      ? table(
          {},
          ["When", "What", "Credits", "Paid"],
          sub.ledger.map((r) =>
            h("tr", {}, h("td", {}, new Date(r.createdAt).toLocaleString()), h("td", {}, KINDS[r.kind] || r.kind), h("td", {}, r.credits > 0 ? `+${r.credits}` : String(r.credits)), h("td", {}, r.cents ? money(r.cents) : "")),
          ),
        )
      : h("p", { class: "muted" }, "Nothing yet."),
  );

  show(
    h("h1", {}, "Billing"),
    ...notes.map((n) => h("p", { class: "card flash", role: "status" }, n)),
    configured ? null : h("p", { class: "card muted", id: "billing-unconfigured" }, "Payments are not configured on this server: purchases and cards are unavailable."),
    credits,
    section("Monthly budget", budgetForm),
    card,
    buy,
    ledger,
  );
}
