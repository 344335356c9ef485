// Workspace pages: projects and capture keys, team and invitations,
// notifications and their preferences, integrations with their delivery log,
// and the alert policy with its preview.
import {
  ROLES,
  SEVERITIES,
  actionForm,
  api,
  copyButton,
  currentQuery,
  empty,
  enc,
  errorText,
  flash,
  go,
  h,
  input,
  options,
  pager,
  relTime,
  select,
  session,
  show,
  support,
  table,
} from "./core.js";
import { digestsSection } from "./digests.js";
import { agentSettingsSection } from "./handoff.js";
import { scrubbingSection } from "./scrubbing.js";
import { sourcemapsSection } from "./sourcemaps.js";
import { supportAccess } from "./operator.js";

function button(label, onclick, cls = "secondary") {
  return h("button", { type: "button", class: cls, onclick }, label);
}
// Runs `fn`, showing progress and its error in `out`, then re-renders the page.
async function act(out, fn, rerender = true) {
  out.textContent = "…";
  try {
    await fn();
    if (out.textContent === "…") out.textContent = "";
    if (rerender) go(location.pathname + location.search, true);
  } catch (e) {
    out.textContent = errorText(e);
  }
}
function section(title, ...children) {
  return h("section", { class: "card block" }, h("h2", {}, title), ...children);
}
// The project chosen in the URL (?projectId=), else the first one.
async function chosenProject(path) {
  const list = (await api("/v1/projects")).projects;
  const id = currentQuery().get("projectId") || (list[0] && list[0].id);
  const picker = h("label", { class: "picker" }, "Project", h("select", { name: "projectId" }, ...list.map((p) => h("option", { value: p.id, selected: p.id === id }, p.name))));
  picker.querySelector("select").addEventListener("change", (e) => go(`${path}?projectId=${enc(e.target.value)}`));
  return { id, picker, list };
}

// ---- projects and capture keys -----------------------------------------------
export async function projects() {
  const list = (await api("/v1/projects")).projects;
  const create = actionForm({ class: "row" }, [input("name", "New project", "text", { required: true, maxlength: 100 }), h("button", { type: "submit" }, "Create project")], async (v) => {
    const p = await api("/v1/projects", { method: "POST", body: { name: v.name, orgId: session.get().orgId } });
    go(`/projects/${p.id}`);
  });
  show(
    h("h1", {}, "Projects"),
    table(
      {},
      ["Name", "Number (DSN)", "Bugs", "New"],
      list.map((p) => h("tr", {}, h("td", {}, h("a", { href: `/projects/${p.id}` }, p.name)), h("td", {}, String(p.project_number)), h("td", {}, String(p.bug_count)), h("td", {}, String(p.new_bug_count)))),
    ),
    create,
  );
}

// Snippets for a new key: our own ingest route and the Sentry SDKs.
function snippets(key, dsn) {
  const list = [
    ["curl", `curl -X POST ${location.origin}/v1/ingest \\\n  -H 'X-Service-Key: ${key}' -H 'Content-Type: application/json' \\\n  -d '{"title":"Checkout button does nothing","severity":"high"}'`],
  ];
  if (dsn) {
    list.push(
      ["JavaScript (@sentry/browser, @sentry/node)", `Sentry.init({ dsn: "${dsn}", release: "app@1.0.0", environment: "production" });`],
      ["Python (sentry-sdk)", `sentry_sdk.init(dsn="${dsn}", release="app@1.0.0", environment="production")`],
      ["Go (sentry-go)", `sentry.Init(sentry.ClientOptions{Dsn: "${dsn}"})`],
    );
  }
  return list.map(([name, code]) => h("details", { open: name === "curl" }, h("summary", {}, name), h("pre", {}, code), copyButton(code)));
}

export async function projectPage(id) {
  const [projectList, keys] = await Promise.all([api("/v1/projects"), api(`/v1/projects/${enc(id)}/keys`)]);
  const p = projectList.projects.find((x) => x.id === id);
  if (!p) return show(h("h1", {}, "Project not found"), h("p", {}, h("a", { href: "/projects" }, "Back to the projects")));
  const out = h("p", { role: "status" });
  const fresh = h("div", { id: "new-key" });
  const create = actionForm(
    { class: "row" },
    [input("label", "Label", "text", { required: true, maxlength: 100 }), input("expiresAt", "Expires (optional)", "date"), h("button", { type: "submit" }, "Create capture key")],
    async (v) => {
      const body = { env: "live", label: v.label, expiresAt: v.expiresAt ? new Date(`${v.expiresAt}T00:00:00Z`).toISOString() : null };
      const k = await api(`/v1/projects/${enc(id)}/keys`, { method: "POST", body });
      // Shown once: kept in this page's memory, never stored.
      fresh.replaceChildren(
        h(
          "div",
          { class: "card" },
          h("p", {}, h("strong", {}, "Copy this key now: it is not shown again.")),
          h("div", { class: "row" }, h("code", { class: "secret" }, k.key), copyButton(k.key)),
          k.dsn ? h("div", { class: "row" }, "DSN ", h("code", { class: "secret" }, k.dsn), copyButton(k.dsn, "Copy DSN")) : null,
          ...snippets(k.key, k.dsn),
        ),
      );
      keyRows.prepend(keyRow(k));
    },
  );
  const keyRow = (k) =>
    h(
      "tr",
      {},
      h("td", {}, h("code", {}, `${k.prefix}…`)),
      h("td", {}, k.label),
      h("td", { class: "hide-narrow" }, relTime(k.last_used)),
      h("td", { class: "hide-narrow" }, k.expiresAt ? new Date(k.expiresAt).toLocaleDateString() : "—"),
      h(
        "td",
        {},
        button("Revoke", () => confirm(`Revoke the key “${k.label}”? Apps using it stop reporting.`) && act(out, () => api(`/v1/projects/${enc(id)}/keys/${enc(k.id)}`, { method: "DELETE" })), "danger"),
      ),
    );
  const keyRows = h("tbody", {}, ...keys.keys.map(keyRow));
  const test = actionForm({ class: "row" }, [select("platform", "Platform", ["web", "ios", "android", "react-native", "flutter", "server"], "web", { any: null }), h("button", { type: "submit", class: "secondary" }, "Send a test event")], async (v) => {
    const r = await api(`/v1/projects/${enc(id)}/test-event`, { method: "POST", body: { platform: v.platform } });
    out.replaceChildren("Test event sent: ", h("a", { href: `/bugs/${r.id}` }, "open it"));
  });
  show(
    h("p", {}, h("a", { href: "/projects" }, "← Projects")),
    h("h1", {}, p.name),
    h("p", { class: "muted" }, `Project number ${p.project_number} · ${p.bug_count} bugs`),
    section("Capture keys", keys.keys.length ? table({}, ["Key", "Label", ["Last used", "hide-narrow"], ["Expires", "hide-narrow"], ""], keyRows) : empty("No key yet."), create, fresh),
    section("Check the setup", h("p", {}, "Sends one real report through the normal pipeline (grouping, webhooks, the live stream)."), test),
    agentSettingsSection(id),
    scrubbingSection(id),
    sourcemapsSection(p),
    digestsSection(id),
    out,
  );
}

// ---- team --------------------------------------------------------------------
export async function team() {
  const [t, activity] = await Promise.all([api("/v1/team"), api("/v1/team/activity?limit=20")]);
  const me = session.get().user || {};
  // Admins see the support sessions opened here (operators under one too).
  const mine = t.members.find((m) => m.id === me.id);
  const supportLog = (mine && mine.role === "admin") || support.get() ? await supportAccess().catch(() => null) : null;
  const out = h("p", { role: "status" });
  const rows = t.members.map((m) => {
    const role = h("select", { "aria-label": `Role of ${m.email}` }, ...options(ROLES, m.role));
    role.addEventListener("change", () => act(out, () => api(`/v1/team/${enc(m.id)}`, { method: "PATCH", body: { role: role.value } })));
    return h(
      "tr",
      { "data-member": m.email },
      h("td", { class: "wrap" }, m.name || "—", h("div", { class: "muted" }, m.email)),
      h("td", {}, role),
      h("td", { class: "hide-narrow" }, m.state === "active" ? "active" : h("span", { class: "badge" }, m.state)),
      h("td", { class: "hide-narrow" }, relTime(m.lastLoginAt)),
      h(
        "td",
        { class: "row" },
        m.state !== "active" ? button("Resend invitation", () => act(out, () => api("/v1/team/invite", { method: "POST", body: { email: m.email, role: m.role, orgId: session.get().orgId, resend: true } }))) : null,
        m.id !== me.id ? button("Remove", () => confirm(`Remove ${m.email} from the organization?`) && act(out, () => api(`/v1/team/${enc(m.id)}`, { method: "DELETE" })), "danger") : null,
      ),
    );
  });
  const invite = actionForm(
    { class: "row", id: "invite" },
    [input("email", "Email", "email", { required: true }), select("role", "Role", ROLES, "member", { any: null }), h("button", { type: "submit" }, "Invite")],
    async (v) => {
      const r = await api("/v1/team/invite", { method: "POST", body: { email: v.email, role: v.role, orgId: session.get().orgId } });
      const sent = r.invitation.emailStatus === "queued" ? "An invitation mail is on its way." : "No mail could be sent: configure mail, then resend.";
      flash(`${v.email} invited (${r.invitation.state}). ${sent}`);
      go("/team", true);
    },
  );
  show(
    h("h1", {}, "Team"),
    table({}, ["Member", "Role", ["State", "hide-narrow"], ["Last sign-in", "hide-narrow"], ""], rows),
    out,
    section("Invite a teammate", invite),
    section(
      "Activity",
      activity.activity.length
        ? h("ul", { class: "plain" }, ...activity.activity.map((a) => h("li", {}, a.actor ? h("strong", {}, a.actor, " ") : null, a.summary, " ", a.bug_id ? h("a", { href: `/bugs/${a.bug_id}` }, a.bug_title) : null, " ", h("small", { class: "muted" }, relTime(a.ts)))))
        : empty("No activity yet."),
    ),
    supportLog,
  );
}

// ---- notifications -----------------------------------------------------------
export async function unreadCount() {
  return (await api("/v1/notifications?unread=true&limit=1")).unreadCount;
}

export async function notifications() {
  const n = await api("/v1/notifications?limit=100");
  const out = h("p", { role: "status" });
  const me = session.get().user || {};
  const prefs = me.id ? await api(`/v1/team/${enc(me.id)}/notifications`).catch(() => null) : null;
  show(
    h("h1", {}, "Notifications"),
    h("div", { class: "row" }, h("span", { class: "muted" }, `${n.unreadCount} unread`), n.unreadCount ? button("Mark all read", () => act(out, () => api("/v1/notifications/read-all", { method: "POST" }))) : null),
    out,
    n.notifications.length
      ? h(
          "ul",
          { class: "plain", id: "notifications" },
          ...n.notifications.map((x) =>
            h(
              "li",
              { class: x.read ? "" : "unread" },
              h("div", {}, h("strong", {}, x.title), " ", h("small", { class: "muted" }, relTime(x.created_at))),
              x.body ? h("div", { class: "wrap" }, x.body) : null,
              h(
                "div",
                { class: "row" },
                x.bug_id ? h("a", { href: `/bugs/${x.bug_id}` }, "Open the bug") : null,
                x.read ? null : button("Mark read", () => act(out, () => api(`/v1/notifications/${enc(x.id)}/read`, { method: "POST" }))),
              ),
            ),
          ),
        )
      : empty("You are all caught up."),
    prefs ? section("Preferences", preferencesForm(me.id, prefs)) : null,
  );
}

function preferencesForm(userId, p) {
  const check = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name, value: "true", checked: !!p[name] }), label);
  return actionForm(
    { class: "prefs", id: "preferences" },
    [
      select("emailLevel", "Email", ["full", "notification", "digest", "off"], p.emailLevel, { any: null, labels: { full: "Full (with the comment or note)", notification: "Title and link", digest: "Digest only", off: "Off" } }),
      select("digestFreq", "How often", ["realtime", "hourly", "daily"], p.digestFreq, { any: null }),
      check("inAppEnabled", "In-app notifications"),
      check("chatEnabled", "Post to a chat webhook"),
      input("chatWebhook", "Chat webhook URL", "url", { value: p.chatWebhook || "", maxlength: 2000 }),
      h("button", { type: "submit" }, "Save preferences"),
    ],
    async (v, form) => {
      await api(`/v1/team/${enc(userId)}/notifications`, {
        method: "PATCH",
        body: { emailLevel: v.emailLevel, digestFreq: v.digestFreq, inAppEnabled: v.inAppEnabled === "true", chatEnabled: v.chatEnabled === "true", chatWebhook: v.chatWebhook || null },
      });
      form.querySelector("[role=alert]").textContent = "";
      form.querySelector("button[type=submit]").textContent = "Saved";
    },
  );
}

// ---- integrations ------------------------------------------------------------
const TYPES = ["webhook", "chat_a", "chat_b", "chat_c", "chat_d", "code_host", "bridge", "agent"];
// [config key, label, input type, integration types that take it]
const CONFIG_FIELDS = [
  ["url", "Destination URL", "url", ["webhook", "agent", "chat_a", "chat_b", "chat_c", "chat_d"]],
  ["secret", "Signing secret (optional: generated when empty)", "text", ["webhook"]],
  ["repo", "Repository (owner/name)", "text", ["code_host"]],
  ["token", "Access token", "password", ["code_host"]],
  ["bridgeUrl", "Bridge URL", "url", ["bridge"]],
  ["address", "Address", "text", ["bridge"]],
];
const EVENTS = ["new_bug", "regression", "status_change", "comment", "assigned", "recommended_bug", "agent_notify", "agent_update"];

export async function integrations() {
  const { id, picker } = await chosenProject("/integrations");
  if (!id) return show(h("h1", {}, "Integrations"), empty("Create a project first."));
  const list = (await api(`/v1/integrations?projectId=${enc(id)}`)).integrations;
  const out = h("p", { role: "status" });
  const secret = h("div", { id: "new-secret" });
  const rows = list.map((x) =>
    h(
      "tr",
      { "data-integration": x.name || x.id },
      h("td", { class: "wrap" }, h("strong", {}, x.name || x.type), h("div", { class: "muted" }, x.type, x.config && x.config.url ? ` · ${x.config.url}` : "")),
      h("td", { class: "hide-narrow" }, x.events.join(", ")),
      h("td", {}, x.is_active ? "active" : h("span", { class: "badge" }, "paused")),
      h(
        "td",
        { class: "row" },
        h("a", { href: `/integrations/${x.id}/deliveries` }, "Deliveries"),
        button(x.is_active ? "Pause" : "Resume", () => act(out, () => api(`/v1/integrations/${enc(x.id)}`, { method: "PATCH", body: { is_active: !x.is_active } }))),
        button("Send test", () => act(out, async () => {
          await api(`/v1/integrations/${enc(x.id)}/test`, { method: "POST" });
          out.textContent = "Test delivered.";
        }, false)),
        x.type === "webhook" || x.type === "agent"
          ? button("Rotate secret", () =>
              act(out, async () => {
                const r = await api(`/v1/integrations/${enc(x.id)}/rotate-secret`, { method: "POST" });
                showSecret(secret, r.signingSecret, "The previous secret still verifies for 24 hours.");
              }, false),
            )
          : null,
        button("Delete", () => confirm(`Delete ${x.name || x.type}?`) && act(out, () => api(`/v1/integrations/${enc(x.id)}`, { method: "DELETE" })), "danger"),
      ),
    ),
  );
  const eventBoxes = h("fieldset", { class: "row" }, h("legend", {}, "Events (empty: the defaults)"), ...EVENTS.map((e) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "events", value: e }), e)));
  const create = actionForm(
    { class: "grid-form", id: "new-integration" },
    [
      select("type", "Type", TYPES, "webhook", { any: null }),
      input("name", "Name", "text", { maxlength: 100 }),
      ...CONFIG_FIELDS.map(([name, label, type, types]) => {
        const field = input(name, label, type, { "data-config": name });
        field.dataset.types = types.join(" ");
        return field;
      }),
      select("deliveryFeed", "Feed", ["all", "urgent_critical", "ui_ux"], "all", { any: null }),
      select("minSeverity", "Minimum severity", SEVERITIES, ""),
      eventBoxes,
      h("button", { type: "submit" }, "Add integration"),
    ],
    async (v, form) => {
      const events = [...form.querySelectorAll("input[name=events]:checked")].map((b) => b.value);
      const config = {};
      for (const [name, , , types] of CONFIG_FIELDS) if (types.includes(v.type) && v[name]) config[name] = v[name];
      const body = { projectId: id, type: v.type, name: v.name || undefined, config };
      if (events.length) body.events = events;
      if (v.type === "webhook" || v.type === "agent") {
        body.deliveryFeed = v.deliveryFeed;
        if (v.minSeverity) body.minSeverity = v.minSeverity;
      }
      const r = await api("/v1/integrations", { method: "POST", body });
      await go(`/integrations?projectId=${enc(id)}`, true);
      if (r.signingSecret) showSecret(document.getElementById("new-secret"), r.signingSecret, "Receivers verify X-Service-Signature-256 with it.");
    },
  );
  // Only the configuration fields of the chosen type are shown.
  const typeSelect = create.querySelector("select[name=type]");
  const showFields = () => {
    for (const f of create.querySelectorAll("[data-types]")) f.hidden = !f.dataset.types.split(" ").includes(typeSelect.value);
  };
  typeSelect.addEventListener("change", showFields);
  showFields();
  show(
    h("h1", {}, "Integrations"),
    picker,
    list.length
      ? table({}, ["Destination", ["Events", "hide-narrow"], "State", ""], rows)
      : empty("No integration yet: add a webhook to hear about new bugs."),
    out,
    secret,
    section("Add an integration", create),
  );
}

function showSecret(el, value, why) {
  el.replaceChildren(h("div", { class: "card" }, h("p", {}, h("strong", {}, "Signing secret, shown once. "), why), h("div", { class: "row" }, h("code", { class: "secret" }, value), copyButton(value))));
}

export async function deliveries(integrationId) {
  const q = currentQuery();
  const limit = 20;
  const offset = Number(q.get("offset")) || 0;
  const p = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (q.get("status")) p.set("status", q.get("status"));
  const d = await api(`/v1/integrations/${enc(integrationId)}/deliveries?${p}`);
  const out = h("p", { role: "status" });
  const filter = h("select", { "aria-label": "Status" }, h("option", { value: "" }, "Every status"), ...options(["pending", "deferred", "success", "failed", "canceled"], q.get("status") || ""));
  filter.addEventListener("change", () => go(`/integrations/${integrationId}/deliveries${filter.value ? `?status=${filter.value}` : ""}`));
  show(
    h("p", {}, h("a", { href: "/integrations" }, "← Integrations")),
    h("h1", {}, "Deliveries"),
    h("label", { class: "row" }, "Status", filter),
    out,
    d.deliveries.length
      ? table(
          { id: "deliveries" },
          ["Event", "Status", "Attempts", ["Response", "hide-narrow"], "Created", ""],
          d.deliveries.map((x) =>
            h(
              "tr",
              {},
              h("td", {}, x.event_type),
              h("td", {}, h("span", { class: `badge st-${x.status}` }, x.status), x.deferred_until ? h("div", { class: "muted" }, "until ", relTime(x.deferred_until)) : null),
              h("td", {}, String(x.attempts)),
              h("td", { class: "hide-narrow wrap" }, x.response_code ? String(x.response_code) : "", x.error_message ? h("div", { class: "muted" }, x.error_message) : null),
              h("td", {}, relTime(x.created_at)),
              h("td", {}, x.can_retry ? button("Retry", () => act(out, () => api(`/v1/integrations/${enc(integrationId)}/deliveries/${enc(x.id)}/retry`, { method: "POST" }))) : null),
            ),
          ),
        )
      : empty("Nothing delivered yet."),
    pager(d.total, limit, offset, `/integrations/${integrationId}/deliveries`),
  );
}

// ---- alert policy and preview ------------------------------------------------
const EXCLUDABLE = ["new_bug", "regression", "status_change", "comment", "assigned", "recommended_bug"];

export async function alerts() {
  const { id, picker } = await chosenProject("/alerts");
  if (!id) return show(h("h1", {}, "Alerts"), empty("Create a project first."));
  const { policy } = await api(`/v1/alerts/policy?projectId=${enc(id)}`);
  const ex = policy.excludes;
  const qh = policy.quietHours || {};
  const lines = (name, label, values) => h("label", {}, label, h("textarea", { name, rows: 2, placeholder: "one per line" }, values.join("\n")));
  const policyForm = actionForm(
    { class: "grid-form", id: "policy" },
    [
      select("severityFloor", "Severity floor", SEVERITIES, policy.severityFloor || "", { any: "None" }),
      h("fieldset", { class: "row" }, h("legend", {}, "Never alert on"), ...EXCLUDABLE.map((e) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "events", value: e, checked: ex.events.includes(e) }), e))),
      lines("titleContains", "Titles containing", ex.titleContains),
      lines("urlContains", "URLs containing", ex.urlContains),
      lines("environments", "Environments", ex.environments),
      h(
        "fieldset",
        { class: "row" },
        h("legend", {}, "Quiet hours (empty: none)"),
        input("start", "From", "time", { value: qh.start || "" }),
        input("end", "To", "time", { value: qh.end || "" }),
        input("timeZone", "Time zone", "text", { value: qh.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone }),
      ),
      h("button", { type: "submit" }, "Save policy"),
    ],
    async (v, form) => {
      const split = (s) =>
        (s || "")
          .split("\n")
          .map((x) => x.trim())
          .filter(Boolean);
      await api("/v1/alerts/policy", {
        method: "PUT",
        body: {
          projectId: id,
          severityFloor: v.severityFloor || null,
          excludes: {
            events: [...form.querySelectorAll("input[name=events]:checked")].map((b) => b.value),
            titleContains: split(v.titleContains),
            urlContains: split(v.urlContains),
            environments: split(v.environments),
          },
          quietHours: v.start && v.end ? { start: v.start, end: v.end, timeZone: v.timeZone } : null,
        },
      });
      form.querySelector("button[type=submit]").textContent = "Saved";
    },
  );
  const result = h("div", { id: "preview-result" });
  const preview = actionForm(
    { class: "grid-form", id: "preview" },
    [
      select("eventType", "Event", ["new_bug", "regression", "recommended_bug", "status_change"], "new_bug", { any: null }),
      input("title", "Title", "text", { required: true, maxlength: 1000, value: "TypeError: cart is undefined" }),
      select("severity", "Severity", SEVERITIES, "high", { any: null }),
      input("url", "URL (optional)", "url", { maxlength: 4096 }),
      h("button", { type: "submit", class: "secondary" }, "Preview"),
    ],
    async (v) => {
      const body = { projectId: id, eventType: v.eventType, title: v.title, severity: v.severity };
      if (v.url) body.url = v.url;
      const r = await api("/v1/alerts/preview", { method: "POST", body });
      result.replaceChildren(
        h("p", {}, "Project gate: ", h("strong", {}, r.projectGate.decision), r.projectGate.reason ? ` (${r.projectGate.reason})` : ""),
        h("p", {}, "Your email: ", h("strong", {}, r.email.disposition)),
        r.connections.length
          ? table(
              {},
              ["Destination", "Decision", "Reason"],
              r.connections.map((c) => h("tr", {}, h("td", {}, c.name || c.type), h("td", {}, c.decision), h("td", {}, c.reason || ""))),
            )
          : empty("No integration on this project."),
        h("p", { class: "muted" }, `${r.totalDestinations} destinations. Nothing was sent.`),
      );
    },
  );
  show(h("h1", {}, "Alerts"), picker, section("Policy", policyForm), section("Preview: what would happen to an event", preview, result));
}
