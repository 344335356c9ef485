// The operator area (superadmins: a verified address on
// SERVICE_SUPERADMIN_EMAILS) over the /v1/admin routes: the overview with
// its 30-day growth chart, customers with filters and a detail page (team,
// projects, plan, stage, billing status, notes), the waitlist with its
// actions, and support sessions: "Start support session" on a customer makes
// every API call act in that organization as an admin (core.js api()) while
// app.js shows the banner. Also the organization's own record of support
// sessions, which its admins see on the team page (supportAccess).
import { actionForm, api, barChart, currentQuery, empty, enc, errorText, flash, go, h, pager, plural, relTime, select, show, support, table } from "./core.js";

const STAGES = ["trial", "active", "paused", "churned", "internal"];
const PLANS = ["free", "pro", "team", "enterprise"];
const BILLING = ["unassigned", "manual", "paid", "past_due"];
const WAITLIST = ["pending", "approved", "rejected", "completed"];
const PAGE = 50;

function tabs(current) {
  const link = (path, text) => h("a", { href: path, "aria-current": current === path ? "page" : null }, text);
  return h("nav", { class: "tabs", "aria-label": "Operator" }, link("/operator", "Overview"), link("/operator/customers", "Customers"), link("/operator/waitlist", "Waitlist"));
}
function button(label, onclick, cls = "secondary") {
  return h("button", { type: "button", class: cls, onclick }, label);
}
// Runs `fn` with its progress and error in `out`, then shows the page again.
async function act(out, fn) {
  out.textContent = "…";
  try {
    await fn();
    go(location.pathname + location.search, true);
  } catch (e) {
    out.textContent = errorText(e);
  }
}
function filters(path, fields) {
  const form = h("form", { class: "filters", role: "search" }, ...fields, h("button", { type: "submit" }, "Apply"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (v) p.set(k, v);
    go(`${path}${p.toString() ? "?" + p : ""}`);
  });
  return form;
}
function query(keys) {
  const q = currentQuery();
  const p = new URLSearchParams();
  for (const k of keys) if (q.get(k)) p.set(k, q.get(k));
  return p;
}

// ---- support sessions --------------------------------------------------------
// Opens a support session on the organization and goes to its bug list.
export async function startSupport(orgId) {
  const r = await api("/v1/admin/support/session", { method: "POST", body: { orgId } });
  support.set(r.session);
  flash(`Support session in ${r.session.orgName} started.`);
  go("/bugs");
}
// Ends the support session now (the server refuses it afterwards).
// The banner's listener (app.js) then returns to the operator area.
export async function endSupport() {
  const s = support.get();
  if (!s) return go("/operator");
  await api(`/v1/admin/support/session/${enc(s.id)}`, { method: "DELETE" }).catch(() => {});
  support.clear();
}
function startButton(orgId, name) {
  const out = h("span", { role: "status" });
  return h(
    "span",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-support": orgId,
        "aria-label": `Start support session in ${name}`,
        onclick: async () => {
          out.textContent = "…";
          try {
            await startSupport(orgId);
          } catch (e) {
            out.textContent = errorText(e);
          }
        },
      },
      "Start support session",
    ),
    out,
  );
}

// ---- overview ----------------------------------------------------------------
export async function overview() {
  const o = await api("/v1/admin/overview");
  const c = o.counts || {};
  const card = (k, v, href) => h("div", { class: "card stat" }, h("div", { class: "muted" }, k), href ? h("a", { href }, h("strong", {}, String(v ?? 0))) : h("strong", {}, String(v ?? 0)));
  const growth = o.growth || [];
  const sum = (key) => growth.reduce((n, d) => n + (d[key] || 0), 0);
  const chart = (key, label) =>
    h("div", { class: "card chart", "data-series": key }, h("h3", {}, `${label}: ${sum(key)} in 30 days`), barChart(`New ${label.toLowerCase()} per day`, growth, (d) => d[key] || 0, (d) => `${d.date}: ${d[key] || 0} new ${label.toLowerCase()}`, 90));
  show(
    h("h1", {}, "Operator"),
    tabs("/operator"),
    h(
      "div",
      { class: "row", id: "operator-counts" },
      card("Users", c.users),
      card("Organizations", c.organizations, "/operator/customers"),
      card("Projects", c.projects),
      card("Bugs", c.bugs),
      card("Events", c.events),
      card("Capture keys", c.api_keys),
      card("Waitlist pending", c.waitlist_pending, "/operator/waitlist?status=pending"),
    ),
    h("h2", {}, "Growth (30 days)"),
    h("div", { class: "grid3" }, chart("users", "Users"), chart("organizations", "Organizations"), chart("bugs", "Bugs")),
  );
}

// ---- customers ---------------------------------------------------------------
export async function customers() {
  const q = currentQuery();
  const offset = Number(q.get("offset")) || 0;
  const p = query(["search", "stage", "plan", "billingStatus"]);
  p.set("limit", String(PAGE));
  if (offset) p.set("offset", String(offset));
  const r = await api(`/v1/admin/customers?${p}`);
  const rows = r.customers.map((c) =>
    h(
      "tr",
      { "data-customer": c.id },
      h("td", { class: "wrap" }, h("a", { href: `/operator/customers/${enc(c.id)}` }, c.name), h("span", { class: "sub muted" }, c.contact_email || c.slug)),
      h("td", {}, c.plan),
      h("td", { class: "hide-narrow" }, c.lifecycle_stage || "—"),
      h("td", { class: "hide-narrow" }, c.billing_status || "—"),
      h("td", { class: "hide-narrow" }, String((c.counts && c.counts.members) ?? "")),
      h("td", { class: "hide-narrow" }, `${(c.counts && c.counts.open_bugs) ?? 0} / ${(c.counts && c.counts.bugs) ?? 0}`),
      h("td", { class: "hide-narrow" }, relTime(c.last_bug_seen)),
      h("td", {}, startButton(c.id, c.name)),
    ),
  );
  show(
    h("h1", {}, "Customers"),
    tabs("/operator/customers"),
    filters("/operator/customers", [
      h("label", {}, "Search", h("input", { name: "search", type: "search", value: q.get("search") || "" })),
      select("stage", "Stage", STAGES, q.get("stage")),
      select("plan", "Plan", PLANS, q.get("plan")),
      select("billingStatus", "Billing", BILLING, q.get("billingStatus")),
    ]),
    h("p", { class: "muted", id: "customer-count" }, plural(r.total, "customer")),
    rows.length
      ? table({ id: "customers" }, ["Organization", "Plan", ["Stage", "hide-narrow"], ["Billing", "hide-narrow"], ["Members", "hide-narrow"], ["Open / bugs", "hide-narrow"], ["Last bug", "hide-narrow"], ""], rows)
      : empty("No customer matches these filters."),
    pager(r.total, r.limit || PAGE, r.offset || 0, "/operator/customers"),
  );
}

export async function customer(orgId) {
  const d = await api(`/v1/admin/customers/${enc(orgId)}`);
  const c = d.customer;
  const edit = actionForm(
    { class: "grid-form card", id: "customer-edit" },
    [
      h("h2", {}, "Account"),
      h("div", { class: "row" }, select("plan", "Plan", PLANS, c.plan, { any: null }), select("lifecycleStage", "Stage", STAGES, c.lifecycle_stage, { any: null }), select("billingStatus", "Billing status", BILLING, c.billing_status, { any: null })),
      h("label", {}, "Notes", h("textarea", { name: "adminNotes", rows: 3, maxlength: 5000 }, c.admin_notes || "")),
      h("button", { type: "submit" }, "Save"),
    ],
    async (v) => {
      await api(`/v1/admin/customers/${enc(orgId)}`, { method: "PATCH", body: { plan: v.plan, lifecycleStage: v.lifecycleStage, billingStatus: v.billingStatus, adminNotes: v.adminNotes } });
      flash("Saved.");
      go(location.pathname, true);
    },
  );
  const facts = [
    ["Slug", c.slug],
    ["Created", relTime(c.created_at)],
    ["Contact", [c.contact_name, c.contact_email].filter(Boolean).join(" · ") || "—"],
    ["Use case", c.use_case || "—"],
    ["Members", String((c.counts && c.counts.members) ?? d.team.length)],
    ["Projects", String((c.counts && c.counts.projects) ?? d.projects.length)],
    ["Bugs (open)", `${(c.counts && c.counts.bugs) ?? 0} (${(c.counts && c.counts.open_bugs) ?? 0})`],
    ["Last bug", relTime(c.last_bug_seen)],
  ];
  show(
    h("h1", {}, c.name),
    tabs(""),
    h("div", { class: "row controls" }, startButton(c.id, c.name)),
    h("dl", { class: "facts card" }, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { class: "wrap" }, v)])),
    edit,
    h("h2", {}, "Team"),
    d.team.length
      ? table(
          { id: "customer-team" },
          ["Member", "Role", ["Verified", "hide-narrow"], ["Last sign-in", "hide-narrow"], ["Joined", "hide-narrow"]],
          d.team.map((m) =>
            h("tr", {}, h("td", { class: "wrap" }, m.name || "—", h("span", { class: "sub muted" }, m.email)), h("td", {}, m.role), h("td", { class: "hide-narrow" }, m.email_verified ? "yes" : "no"), h("td", { class: "hide-narrow" }, relTime(m.last_login)), h("td", { class: "hide-narrow" }, relTime(m.joined_at))),
          ),
        )
      : empty("No members."),
    h("h2", {}, "Projects"),
    d.projects.length
      ? table(
          { id: "customer-projects" },
          ["Project", "Platform", "Bugs", ["Active keys", "hide-narrow"], ["Key last used", "hide-narrow"]],
          d.projects.map((p) => h("tr", {}, h("td", { class: "wrap" }, p.name, h("span", { class: "sub muted" }, p.slug)), h("td", {}, p.platform), h("td", {}, String(p.bug_count ?? 0)), h("td", { class: "hide-narrow" }, String(p.active_keys ?? 0)), h("td", { class: "hide-narrow" }, relTime(p.last_key_used)))),
        )
      : empty("No projects."),
  );
}

// ---- waitlist ----------------------------------------------------------------
export async function waitlist() {
  const q = currentQuery();
  const offset = Number(q.get("offset")) || 0;
  const p = query(["search", "status"]);
  p.set("limit", String(PAGE));
  if (offset) p.set("offset", String(offset));
  const r = await api(`/v1/admin/waitlist?${p}`);
  const out = h("p", { role: "status", id: "waitlist-status" });
  const action = (e, verb, label) => button(label, () => act(out, () => api(`/v1/admin/waitlist/${enc(e.id)}/${verb}`, { method: "POST", body: {} }).then(() => flash(`${e.email}: ${verb === "resend" ? "approval mail sent again" : verb + "d"}.`))), verb === "reject" ? "danger" : "secondary");
  const rows = r.entries.map((e) =>
    h(
      "tr",
      { "data-entry": e.email },
      h("td", { class: "wrap" }, e.name || "—", h("span", { class: "sub muted" }, e.email)),
      h("td", { class: "wrap" }, e.org_name || "—", e.use_case ? h("span", { class: "sub muted" }, e.use_case) : null),
      h("td", {}, h("span", { class: "badge" }, e.status)),
      h("td", { class: "hide-narrow" }, relTime(e.created_at)),
      h(
        "td",
        { class: "row" },
        e.status === "pending" || e.status === "rejected" ? action(e, "approve", "Approve") : null,
        e.status === "pending" || e.status === "approved" ? action(e, "reject", "Reject") : null,
        e.status === "approved" ? action(e, "resend", "Resend") : null,
        e.target_org_id ? h("a", { href: `/operator/customers/${enc(e.target_org_id)}` }, "Customer") : null,
      ),
    ),
  );
  show(
    h("h1", {}, "Waitlist"),
    tabs("/operator/waitlist"),
    filters("/operator/waitlist", [h("label", {}, "Search", h("input", { name: "search", type: "search", value: q.get("search") || "" })), select("status", "Status", WAITLIST, q.get("status"))]),
    out,
    h("p", { class: "muted" }, `${r.total} ${r.total === 1 ? "entry" : "entries"}`),
    rows.length ? table({ id: "waitlist" }, ["Person", "Organization", "Status", ["Joined", "hide-narrow"], ""], rows) : empty("Nobody is waiting."),
    pager(r.total, r.limit || PAGE, r.offset || 0, "/operator/waitlist"),
  );
}

// ---- the organization's record (its admins) ----------------------------------
// The support sessions opened on the organization and the requests made
// under them (GET /v1/org/support-sessions), as a section for the team page.
export async function supportAccess() {
  const r = await api("/v1/org/support-sessions?limit=20");
  const when = (s) => (s.active ? h("span", { class: "badge support-live" }, "active") : s.endedAt ? "ended" : "expired");
  return h(
    "section",
    { class: "card block", id: "support-access" },
    h("h2", {}, "Support access"),
    h("p", { class: "muted" }, "Sessions in which the service's operators acted in this organization as an admin, and what they called."),
    r.sessions.length
      ? table(
          { id: "support-sessions" },
          ["Operator", "State", "Requests", ["Started", "hide-narrow"], ["Ends", "hide-narrow"]],
          r.sessions.map((s) => h("tr", { "data-session": s.id }, h("td", { class: "wrap" }, s.operatorEmail), h("td", {}, when(s)), h("td", {}, String(s.requests)), h("td", { class: "hide-narrow" }, relTime(s.createdAt)), h("td", { class: "hide-narrow" }, h("time", { datetime: s.endedAt || s.expiresAt }, new Date(s.endedAt || s.expiresAt).toLocaleString())))),
        )
      : empty("No support session has been opened here."),
    r.activity.length
      ? h("details", {}, h("summary", {}, `Recent requests (${r.activity.length})`), h("ul", { class: "plain" }, ...r.activity.map((a) => h("li", {}, h("code", {}, `${a.method} ${a.path}`), " ", h("small", { class: "muted" }, relTime(a.ts))))))
      : null,
  );
}
