// The web console: a single-page client of the public HTTP API (/v1/...).
// No framework and no dependency: the browser's DOM, fetch and history.
// Text from the API is always set as text (never parsed as HTML).

const main = document.getElementById("main");
const nav = document.getElementById("nav");

// ---- session -----------------------------------------------------------------
// Tokens live in sessionStorage (this tab, until it closes); a capture key
// shown once after sign-up lives in memory only.
const session = {
  get() {
    try {
      return JSON.parse(sessionStorage.getItem("service.session") || "null");
    } catch {
      return null;
    }
  },
  set(s) {
    sessionStorage.setItem("service.session", JSON.stringify(s));
  },
  clear() {
    sessionStorage.removeItem("service.session");
  },
};
let shownKey = null; // {apiKey, projectId} after registering

// ---- DOM helpers -------------------------------------------------------------
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
function show(...nodes) {
  main.replaceChildren(...nodes);
}
function relTime(iso) {
  if (!iso) return h("span", { class: "muted" }, "never");
  const t = new Date(iso);
  const s = Math.round((Date.now() - t.getTime()) / 1000);
  const text =
    s < 60 ? "just now" : s < 3600 ? `${Math.floor(s / 60)} min ago` : s < 86400 ? `${Math.floor(s / 3600)} h ago` : `${Math.floor(s / 86400)} d ago`;
  return h("time", { datetime: iso, title: t.toLocaleString() }, text);
}
function sev(s) {
  return h("span", { class: `sev sev-${s}` }, s || "");
}

// ---- API ---------------------------------------------------------------------
class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.error || body.message)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}
async function refresh(s) {
  const r = await fetch("/v1/auth/refresh", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refreshToken: s.refreshToken }),
  });
  if (!r.ok) return false;
  const b = await r.json();
  session.set({ ...s, accessToken: b.accessToken, refreshToken: b.refreshToken || s.refreshToken });
  return true;
}
async function api(path, { method = "GET", body, retried = false } = {}) {
  const s = session.get();
  const headers = {};
  if (s) {
    headers.Authorization = `Bearer ${s.accessToken}`;
    if (s.orgId) headers["X-Service-Org"] = s.orgId;
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status === 401 && s && !retried && (await refresh(s))) return api(path, { method, body, retried: true });
  if (r.status === 401 && s) {
    // The session ended: sign in again and come back here.
    session.clear();
    if (location.pathname !== "/signin") go(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new ApiError(401, { error: "Session expired" });
  }
  const text = await r.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}
function errorBox(e) {
  return h("p", { class: "error", role: "alert" }, e instanceof ApiError ? e.message : "Something went wrong.");
}

// ---- router ------------------------------------------------------------------
let cleanup = null; // the current view's teardown (an open stream)
function go(url, replace = false) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  render();
}
document.addEventListener("click", (e) => {
  const a = e.target.closest("a");
  if (!a || a.target || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/v1/")) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener("popstate", render);
document.getElementById("signout").addEventListener("click", () => {
  session.clear();
  go("/signin");
});

const routes = [
  [/^\/signin$/, signIn, false],
  [/^\/register$/, register, false],
  [/^\/welcome$/, welcome, true],
  [/^\/(bugs)?$/, bugList, true],
  [/^\/bugs\/([^/]+)$/, bugPage, true],
  [/^\/groups$/, groups, true],
  [/^\/live$/, live, true],
  [/^\/stats$/, stats, true],
  [/^\/projects$/, projects, true],
];
async function render() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  const path = location.pathname;
  const signedIn = !!session.get();
  nav.hidden = !signedIn;
  for (const [re, view, needsSession] of routes) {
    const m = path.match(re);
    if (!m) continue;
    if (needsSession && !signedIn) return go(`/signin?next=${encodeURIComponent(path + location.search)}`, true);
    try {
      await view(...m.slice(1));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) show(errorBox(e));
    }
    main.focus({ preventScroll: true });
    return;
  }
  show(h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/bugs" }, "Back to the bugs")));
}

// ---- views: account ----------------------------------------------------------
function authForm(title, fields, submitText, onSubmit, footer) {
  const err = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "card auth", novalidate: true },
    h("h1", {}, title),
    ...fields.map(([name, label, type, extra]) =>
      h("label", {}, label, h("input", { name, type, required: true, autocomplete: extra || "on" })),
    ),
    h("button", { type: "submit" }, submitText),
    err,
    footer,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const values = Object.fromEntries(new FormData(form).entries());
    try {
      await onSubmit(values);
    } catch (x) {
      err.textContent = x instanceof ApiError ? x.message : "Could not reach the server.";
    }
  });
  show(form);
  form.querySelector("input").focus();
}
function signIn() {
  authForm(
    "Sign in",
    [
      ["email", "Email", "email", "username"],
      ["password", "Password", "password", "current-password"],
    ],
    "Sign in",
    async (v) => {
      const b = await api("/v1/auth/login", { method: "POST", body: v });
      session.set({ accessToken: b.accessToken, refreshToken: b.refreshToken, orgId: b.org && b.org.id, user: b.user });
      const next = new URLSearchParams(location.search).get("next");
      go(next && next.startsWith("/") && !next.startsWith("//") ? next : "/bugs", true);
    },
    h("p", {}, "No account yet? ", h("a", { href: "/register" }, "Create one")),
  );
}
function register() {
  authForm(
    "Create your workspace",
    [
      ["name", "Your name", "text", "name"],
      ["email", "Email", "email", "username"],
      ["password", "Password (at least 8 characters)", "password", "new-password"],
      ["orgName", "Organization", "text", "organization"],
    ],
    "Create workspace",
    async (v) => {
      const b = await api("/v1/auth/register", { method: "POST", body: v });
      session.set({ accessToken: b.accessToken, refreshToken: b.refreshToken, orgId: b.org.id, user: b.user });
      shownKey = { apiKey: b.apiKey, projectId: b.project && b.project.id };
      go("/welcome", true);
    },
    h("p", {}, "Have an account? ", h("a", { href: "/signin" }, "Sign in")),
  );
}
function copyButton(text) {
  return h(
    "button",
    {
      type: "button",
      class: "secondary",
      onclick: async (e) => {
        await navigator.clipboard.writeText(text).catch(() => {});
        e.target.textContent = "Copied";
      },
    },
    "Copy",
  );
}
function welcome() {
  if (!shownKey) return go("/bugs", true);
  const snippet = `curl -X POST ${location.origin}/v1/ingest \\\n  -H 'X-Service-Key: ${shownKey.apiKey}' -H 'Content-Type: application/json' \\\n  -d '{"title":"Checkout button does nothing","severity":"high","url":"https://shop.example/cart"}'`;
  show(
    h("h1", {}, "Your workspace is ready"),
    h("p", {}, "This capture key is shown once. Keep it where your apps can send reports with it."),
    h("div", { class: "card row" }, h("code", { id: "capture-key" }, shownKey.apiKey), copyButton(shownKey.apiKey)),
    h("h2", {}, "Send a first report"),
    h("pre", {}, snippet),
    copyButton(snippet),
    h("p", {}, h("a", { href: "/bugs" }, "Go to the bugs")),
  );
  shownKey = null;
}

// ---- views: bugs -------------------------------------------------------------
const STATUSES = ["new", "known", "working", "resolved", "silenced"];
const SEVERITIES = ["critical", "high", "medium", "low"];

function select(name, label, values, current) {
  return h(
    "label",
    {},
    label,
    h("select", { name }, h("option", { value: "" }, "Any"), ...values.map((v) => h("option", { value: v, selected: v === current }, v))),
  );
}

// Reads the server-sent events of /v1/bugs/stream through fetch (EventSource
// cannot send the bearer); reconnects after the server's `retry`.
function openStream(onEvent) {
  let stopped = false;
  let controller = null;
  let retryMs = 3000;
  async function run() {
    while (!stopped) {
      const s = session.get();
      if (!s) return;
      controller = new AbortController();
      try {
        const r = await fetch("/v1/bugs/stream", {
          headers: { Authorization: `Bearer ${s.accessToken}`, "X-Service-Org": s.orgId, Accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (r.status === 401 && !(await refresh(s))) return;
        if (r.ok && r.body) {
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              let type = "message";
              let data = "";
              for (const line of block.split("\n")) {
                if (line.startsWith("event:")) type = line.slice(6).trim();
                else if (line.startsWith("data:")) data += line.slice(5).trim();
                else if (line.startsWith("retry:")) retryMs = Number(line.slice(6)) || retryMs;
              }
              if (data) {
                try {
                  onEvent(type, JSON.parse(data));
                } catch {
                  /* not JSON: ignored */
                }
              }
            }
          }
        }
      } catch {
        /* aborted or dropped */
      }
      if (!stopped) await new Promise((ok) => setTimeout(ok, retryMs));
    }
  }
  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}

async function bugList() {
  const q = new URLSearchParams(location.search);
  const filters = h(
    "form",
    { class: "filters", role: "search" },
    h("label", {}, "Search", h("input", { name: "search", type: "search", value: q.get("search") || "" })),
    select("status", "Status", STATUSES, q.get("status")),
    select("severity", "Severity", SEVERITIES, q.get("severity")),
    h("button", { type: "submit" }, "Apply"),
  );
  filters.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(filters).entries()) if (v) p.set(k, v);
    go(`/bugs${p.toString() ? "?" + p : ""}`);
  });
  const body = h("tbody");
  const summary = h("p", { class: "muted", id: "bug-count" });
  const table = h(
    "table",
    { "aria-describedby": "bug-count" },
    h("thead", {}, h("tr", {}, h("th", {}, "Title"), h("th", {}, "Severity"), h("th", {}, "Status"), h("th", { class: "hide-narrow" }, "Reports"), h("th", {}, "Last seen"))),
    body,
  );
  show(h("h1", {}, "Bugs"), filters, summary, h("div", { class: "skeleton" }, table));
  const known = new Set();
  async function load(markNew) {
    const p = new URLSearchParams();
    for (const k of ["search", "status", "severity", "projectId", "assignee"]) if (q.get(k)) p.set(k, q.get(k));
    p.set("limit", "50");
    const t0 = performance.now();
    const page = await api(`/v1/bugs?${p}`);
    const t1 = performance.now();
    const rows = page.bugs.map((b) =>
      h(
        "tr",
        { class: markNew && !known.has(b.id) ? "new-row" : null, "data-bug": b.id },
        h("td", {}, h("a", { href: `/bugs/${b.id}` }, b.title), b.is_regression ? h("span", { class: "badge" }, " regression") : null),
        h("td", {}, sev(b.severity)),
        h("td", {}, b.status),
        h("td", { class: "hide-narrow" }, String(b.report_count ?? "")),
        h("td", {}, relTime(b.last_seen)),
      ),
    );
    for (const b of page.bugs) known.add(b.id);
    body.replaceChildren(...rows);
    summary.textContent = page.total === 0 ? "No bugs match. Reports sent with a capture key appear here as they arrive." : `${page.total} bugs`;
    // Read by the browser test: request to rendered rows, and API answer to
    // rendered rows (the list is interactive once its rows are in the DOM).
    window.__consoleListMs = performance.now() - t0;
    window.__consoleListRenderMs = performance.now() - t1;
  }
  await load(false);
  let pending = null;
  cleanup = openStream((type) => {
    if (!["new_bug", "regression", "status_change", "deleted", "duplicate"].includes(type)) return;
    clearTimeout(pending);
    pending = setTimeout(() => load(true).catch(() => {}), 150);
  });
}

async function bugPage(id) {
  const [bug, comments] = await Promise.all([api(`/v1/bugs/${encodeURIComponent(id)}`), api(`/v1/bugs/${encodeURIComponent(id)}/comments`)]);
  const b = bug.bug || bug;
  const status = h("select", { name: "status", id: "bug-status" }, ...STATUSES.map((s) => h("option", { value: s, selected: s === b.status }, s)));
  const statusMsg = h("span", { class: "muted", role: "status" });
  status.addEventListener("change", async () => {
    statusMsg.textContent = "Saving…";
    try {
      await api(`/v1/bugs/${encodeURIComponent(id)}`, { method: "PATCH", body: { status: status.value } });
      statusMsg.textContent = "Saved";
    } catch (e) {
      statusMsg.textContent = e.message;
    }
  });
  const list = h(
    "ul",
    { class: "plain", id: "comments" },
    ...(comments.comments || []).map((c) => h("li", {}, h("div", {}, c.content), h("small", { class: "muted" }, c.user_name || c.user_email || "", " · ", relTime(c.created_at)))),
  );
  const form = h(
    "form",
    { class: "row" },
    h("label", {}, "Comment", h("textarea", { name: "content", rows: 3, cols: 50, required: true, maxlength: 10000 })),
    h("button", { type: "submit" }, "Add comment"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const content = new FormData(form).get("content");
    if (!content) return;
    const c = await api(`/v1/bugs/${encodeURIComponent(id)}/comments`, { method: "POST", body: { content } });
    list.append(h("li", {}, h("div", {}, c.content), h("small", { class: "muted" }, "you · ", relTime(c.created_at))));
    form.reset();
  });
  const occurrences = (bug.recent_occurrences || bug.occurrences || []).slice(0, 10);
  show(
    h("p", {}, h("a", { href: "/bugs" }, "← Bugs")),
    h("h1", {}, b.title),
    h("div", { class: "row" }, sev(b.severity), b.is_regression ? h("span", { class: "badge" }, "regression") : null, h("label", { class: "row" }, "Status", status), statusMsg),
    h(
      "div",
      { class: "grid2" },
      h(
        "section",
        {},
        b.description ? h("pre", {}, b.description) : null,
        h("h2", {}, "Recent occurrences"),
        occurrences.length
          ? h("ul", { class: "plain" }, ...occurrences.map((o) => h("li", {}, relTime(o.occurred_at || o.created_at), " ", o.url || "", " ", h("span", { class: "muted" }, o.platform || ""))))
          : h("p", { class: "muted" }, "No occurrences recorded."),
        h("h2", {}, "Comments"),
        list,
        form,
      ),
      h(
        "aside",
        { class: "card" },
        h("p", {}, "Reports: ", String(b.report_count ?? "")),
        h("p", {}, "First seen: ", relTime(b.first_seen)),
        h("p", {}, "Last seen: ", relTime(b.last_seen)),
        b.url ? h("p", {}, "URL: ", b.url) : null,
      ),
    ),
  );
}

// Grouped view (GET /v1/bugs/groups) with its sorts, and search
// (GET /v1/bugs/search) when the URL has q: both keep their state in the URL.
const SORTS = ["last_seen", "first_seen", "count", "severity", "title", "signal", "assignee"];
async function groups() {
  const q = new URLSearchParams(location.search);
  const form = h(
    "form",
    { class: "filters", role: "search" },
    h("label", {}, "Search (typos welcome)", h("input", { name: "q", type: "search", value: q.get("q") || "", minlength: 2 })),
    h(
      "label",
      {},
      "Sort",
      h("select", { name: "sort" }, ...SORTS.map((v) => h("option", { value: v, selected: v === (q.get("sort") || "last_seen") }, v.replace("_", " ")))),
    ),
    h(
      "label",
      {},
      "Direction",
      h("select", { name: "direction" }, ...["desc", "asc"].map((v) => h("option", { value: v, selected: v === (q.get("direction") || "desc") }, v))),
    ),
    h("button", { type: "submit" }, "Apply"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (v) p.set(k, v);
    if (p.get("q")) {
      p.delete("sort");
      p.delete("direction");
    }
    go(`/groups?${p}`);
  });
  const searching = (q.get("q") || "").trim().length >= 2;
  const p = new URLSearchParams({ limit: "50" });
  if (searching) p.set("q", q.get("q"));
  else for (const k of ["sort", "direction"]) if (q.get(k)) p.set(k, q.get(k));
  const page = await api(searching ? `/v1/bugs/search?${p}` : `/v1/bugs/groups?${p}`);
  const rows = page.groups.map((g) =>
    h(
      "tr",
      { "data-group": g.groupKey },
      h("td", {}, h("a", { href: `/bugs/${g.sampleBugId}` }, g.sampleTitle), g.anyRegression ? h("span", { class: "badge" }, " regression") : null),
      h("td", {}, sev(g.severity)),
      h("td", {}, g.status),
      h("td", {}, String(g.instanceCount)),
      h("td", { class: "hide-narrow" }, String(g.reportCount)),
      h("td", { class: "hide-narrow" }, String(g.userCount)),
      h("td", {}, relTime(g.lastSeen)),
    ),
  );
  show(
    h("h1", {}, searching ? `Search: ${q.get("q")}` : "Groups"),
    form,
    h("p", { class: "muted", id: "group-count" }, page.total === 0 ? "No group matches." : `${page.total} groups`),
    h(
      "table",
      { "aria-describedby": "group-count" },
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, "Sample title"), h("th", {}, "Severity"), h("th", {}, "Status"), h("th", {}, "Bugs"), h("th", { class: "hide-narrow" }, "Reports"), h("th", { class: "hide-narrow" }, "Users"), h("th", {}, "Last seen")),
      ),
      h("tbody", {}, ...rows),
    ),
  );
}

async function live() {
  const body = h("ul", { class: "plain", id: "live" });
  show(h("h1", {}, "Live"), h("p", { class: "muted" }, "Reports as they arrive."), body);
  async function load() {
    const page = await api("/v1/bugs/live?limit=50");
    body.replaceChildren(
      ...page.occurrences.map((o) => h("li", {}, relTime(o.occurred_at || o.created_at), " ", sev(o.severity), " ", h("a", { href: `/bugs/${o.bug_id}` }, o.title || o.bug_id))),
    );
  }
  await load();
  let pending = null;
  cleanup = openStream(() => {
    clearTimeout(pending);
    pending = setTimeout(() => load().catch(() => {}), 150);
  });
}

async function stats() {
  const s = await api("/v1/bugs/stats?days=30");
  const a = s.aggregates || {};
  const max = Math.max(1, ...(s.timeline || []).map((d) => d.report_count));
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${(s.timeline || []).length * 10} 100`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Reports per day");
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "120");
  (s.timeline || []).forEach((d, i) => {
    const r = document.createElementNS(ns, "rect");
    const hgt = (d.report_count / max) * 96;
    r.setAttribute("x", String(i * 10 + 1));
    r.setAttribute("y", String(100 - hgt));
    r.setAttribute("width", "8");
    r.setAttribute("height", String(hgt));
    r.setAttribute("fill", "currentColor");
    const t = document.createElementNS(ns, "title");
    t.textContent = `${d.date}: ${d.report_count} reports, ${d.bug_count} new bugs`;
    r.append(t);
    svg.append(r);
  });
  show(
    h("h1", {}, "Stats (30 days)"),
    h(
      "div",
      { class: "row" },
      ...[
        ["Open", a.open],
        ["Critical", a.sev_critical],
        ["High", a.sev_high],
        ["Reports", a.total_reports],
        ["Health score (lower is better)", s.health_score],
        ["MTTR (hours)", s.mttr_hours ?? "–"],
      ].map(([k, v]) => h("div", { class: "card" }, h("div", { class: "muted" }, k), h("strong", {}, String(v ?? 0)))),
    ),
    h("h2", {}, "Reports per day"),
    h("div", { class: "card" }, svg),
  );
}

async function projects() {
  const p = await api("/v1/projects");
  show(
    h("h1", {}, "Projects"),
    h("ul", { class: "plain" }, ...(p.projects || []).map((x) => h("li", {}, h("strong", {}, x.name), " ", h("span", { class: "muted" }, x.id)))),
  );
}

render();
