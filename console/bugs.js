// Triage pages: the bug list (filters in the URL, bulk status, assignment and
// merge, live updates), groups and search, recommended, a bug's page, the live
// feed, stats and end users.
import {
  PLATFORMS,
  SEVERITIES,
  SIGNAL_CLASSES,
  STATUSES,
  actionForm,
  api,
  barChart,
  currentQuery,
  debounce,
  empty,
  enc,
  errorText,
  go,
  h,
  onLeave,
  openStream,
  options,
  pager,
  pick,
  plural,
  relTime,
  select,
  sev,
  show,
  table,
} from "./core.js";
import { evidenceSection } from "./evidence.js";
import { agentSection } from "./handoff.js";
import { hasMappedFrames, stackView } from "./sourcemaps.js";
import { verificationSection } from "./verification.js";

// Members for assignee pickers and names: {id -> name or email}.
async function members() {
  const t = await api("/v1/team");
  return t.members.filter((m) => m.state === "active");
}
function memberLabels(list) {
  return Object.fromEntries(list.map((m) => [m.id, m.name || m.email]));
}
function badge(text) {
  return h("span", { class: "badge" }, text);
}
function regression(b) {
  return b ? badge("regression") : null;
}
// "N bugs": the bugs of one group (one error on several pages), linking to them.
function groupBadge(projectId, groupKey, count) {
  return h("a", { class: "badge group-badge", href: `/groups/${enc(projectId)}/${enc(groupKey)}`, title: `One error on ${count} pages: open the group` }, `${count} bugs`);
}
// Every bug, or one row per group: the same filters either way.
function viewTabs(current) {
  const q = pick(currentQuery(), ["status", "severity", "projectId"]);
  const tail = q.toString() ? `?${q}` : "";
  const tab = (href, text) => h("a", { href: `${href}${tail}`, "aria-current": href === current ? "page" : null }, text);
  return h("nav", { class: "tabs", "aria-label": "List view" }, tab("/bugs", "Every bug"), tab("/groups", "Grouped"));
}
// A bug's title with the page it was first seen on under it (the bugs of one
// group differ by their page).
function titleCell(b) {
  return h("td", {}, h("a", { href: `/bugs/${b.id}` }, b.title), " ", regression(b.is_regression), b.url ? h("small", { class: "muted sub wrap" }, b.url) : null);
}
// A form whose submit writes its non-empty fields into the URL of `path`.
function filterForm(path, fields, keep = []) {
  const form = h("form", { class: "filters", role: "search" }, ...fields, h("button", { type: "submit" }, "Apply"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = pick(currentQuery(), keep);
    for (const [k, v] of new FormData(form).entries()) if (v) p.set(k, v);
    go(`${path}${p.toString() ? "?" + p : ""}`);
  });
  return form;
}

// ---- the bug list ------------------------------------------------------------
const LIST_FILTERS = ["search", "status", "severity", "signalClass", "platform", "assignee", "projectId", "includeDiagnostics"];

export async function bugList() {
  const q = currentQuery();
  const [team, projects] = await Promise.all([members(), api("/v1/projects")]);
  const names = memberLabels(team);
  const assigneeChoices = ["me", "unassigned", ...team.map((m) => m.id)];
  const filters = filterForm("/bugs", [
    h("label", {}, "Search", h("input", { name: "search", type: "search", value: q.get("search") || "" })),
    select("status", "Status", STATUSES, q.get("status")),
    select("severity", "Severity", SEVERITIES, q.get("severity")),
    select("signalClass", "Signal", SIGNAL_CLASSES, q.get("signalClass")),
    select("platform", "Platform", PLATFORMS, q.get("platform")),
    select("assignee", "Assignee", assigneeChoices, q.get("assignee"), { labels: { me: "Me", unassigned: "Unassigned", ...names } }),
    select(
      "projectId",
      "Project",
      projects.projects.map((p) => p.id),
      q.get("projectId"),
      { labels: Object.fromEntries(projects.projects.map((p) => [p.id, p.name])) },
    ),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "includeDiagnostics", value: "true", checked: q.get("includeDiagnostics") === "true" }), "Diagnostics"),
  ]);

  const body = h("tbody");
  const summary = h("p", { class: "muted", id: "bug-count" });
  const pages = h("div");
  const selected = new Set();
  const all = h("input", { type: "checkbox", "aria-label": "Select all shown" });
  const bulk = bulkBar(selected, team, () => load(false));
  all.addEventListener("change", () => {
    for (const box of body.querySelectorAll("input[type=checkbox]")) {
      box.checked = all.checked;
      if (all.checked) selected.add(box.value);
      else selected.delete(box.value);
    }
    bulk.update();
  });
  const list = table(
    { "aria-describedby": "bug-count" },
    [all, "Title", "Group", "Severity", "Status", ["Assignee", "hide-narrow"], ["Reports", "hide-narrow"], "Last seen"],
    body,
  );
  show(h("h1", {}, "Bugs"), viewTabs("/bugs"), filters, bulk.el, summary, h("div", { class: "skeleton" }, list), pages);
  const known = new Set();
  const limit = 50;
  const offset = Number(q.get("offset")) || 0;
  async function load(markNew) {
    const p = pick(q, LIST_FILTERS);
    p.set("limit", String(limit));
    p.set("offset", String(offset));
    const t0 = performance.now();
    // The groups of the same selection, for the Group column: a bug sharing
    // its error (signature) with others shows "N bugs", linking to them.
    const g = pick(q, LIST_FILTERS);
    g.set("limit", "200");
    const [page, grouped] = await Promise.all([api(`/v1/bugs?${p}`), api(`/v1/bugs/groups?${g}`)]);
    const groupOf = {};
    for (const x of grouped.groups) for (const id of x.memberIds) groupOf[id] = x;
    const t1 = performance.now();
    const rows = page.bugs.map((b) => {
      const box = h("input", { type: "checkbox", value: b.id, "aria-label": `Select ${b.title}`, checked: selected.has(b.id) });
      box.addEventListener("change", () => {
        if (box.checked) selected.add(b.id);
        else selected.delete(b.id);
        bulk.update();
      });
      return h(
        "tr",
        { class: markNew && !known.has(b.id) ? "new-row" : null, "data-bug": b.id },
        h("td", {}, box),
        titleCell(b),
        h("td", {}, groupOf[b.id] && groupOf[b.id].instanceCount > 1 ? groupBadge(groupOf[b.id].projectId, groupOf[b.id].groupKey, groupOf[b.id].instanceCount) : h("span", { class: "muted" }, "—")),
        h("td", {}, sev(b.severity)),
        h("td", {}, b.status),
        h("td", { class: "hide-narrow" }, b.assigned_to ? names[b.assigned_to] || "—" : h("span", { class: "muted" }, "—")),
        h("td", { class: "hide-narrow" }, String(b.report_count ?? "")),
        h("td", {}, relTime(b.last_seen)),
      );
    });
    for (const b of page.bugs) known.add(b.id);
    body.replaceChildren(...rows);
    bulk.titles = Object.fromEntries(page.bugs.map((b) => [b.id, b.title]));
    summary.textContent =
      page.total === 0
        ? q.toString()
          ? "No bugs match these filters."
          : "No bugs yet. Reports sent with a capture key appear here as they arrive."
        : plural(page.total, "bug");
    pages.replaceChildren(pager(page.total, limit, offset, "/bugs") || "");
    // Read by the browser test: request to rendered rows, and API answer to
    // rendered rows (the list is interactive once its rows are in the DOM).
    window.__consoleListMs = performance.now() - t0;
    window.__consoleListRenderMs = performance.now() - t1;
  }
  const reload = debounce(() => load(true));
  // Subscribed first, read second: a report arriving in between is in the read.
  await openStream((type) => {
    if (["new_bug", "regression", "status_change", "deleted", "duplicate"].includes(type)) reload();
  }, reload);
  await load(false);
}

// The bar over the list: status, assignment and merge of the selected bugs.
function bulkBar(selected, team, reload) {
  const count = h("span", { class: "muted", role: "status" });
  const msg = h("span", { role: "status" });
  const status = h("select", { name: "status", "aria-label": "Set status" }, h("option", { value: "" }, "Set status…"), ...options(STATUSES));
  const assign = h(
    "select",
    { name: "assignedTo", "aria-label": "Assign to" },
    h("option", { value: "" }, "Assign to…"),
    h("option", { value: "none" }, "Nobody"),
    ...team.map((m) => h("option", { value: m.id }, m.name || m.email)),
  );
  const target = h("select", { name: "targetId", "aria-label": "Merge into" });
  const mergeButton = h("button", { type: "button", class: "secondary" }, "Merge into");
  const bar = {
    titles: {},
    el: h("div", { class: "row card bulk", hidden: true }, count, status, assign, h("span", { class: "row" }, mergeButton, target), msg),
    update() {
      bar.el.hidden = selected.size === 0;
      count.textContent = `${selected.size} selected`;
      target.replaceChildren(...[...selected].map((id) => h("option", { value: id }, bar.titles[id] || id)));
      mergeButton.disabled = selected.size < 2;
    },
  };
  async function run(what, fn) {
    msg.textContent = `${what}…`;
    try {
      await fn();
      msg.textContent = "Done";
      selected.clear();
      bar.update();
      await reload();
    } catch (e) {
      msg.textContent = errorText(e);
    }
  }
  status.addEventListener("change", () => {
    if (!status.value) return;
    const value = status.value;
    status.value = "";
    run("Saving", () => api("/v1/bugs/bulk", { method: "PATCH", body: { ids: [...selected], status: value } }));
  });
  assign.addEventListener("change", () => {
    if (!assign.value) return;
    const value = assign.value === "none" ? null : assign.value;
    assign.value = "";
    run("Assigning", () => api("/v1/bugs/bulk", { method: "PATCH", body: { ids: [...selected], assignedTo: value } }));
  });
  mergeButton.addEventListener("click", () => {
    const targetId = target.value;
    const sourceIds = [...selected].filter((id) => id !== targetId);
    if (!confirm(`Merge ${sourceIds.length} bug(s) into “${bar.titles[targetId] || targetId}”?`)) return;
    run("Merging", () => api("/v1/bugs/merge", { method: "POST", body: { sourceIds, targetId } }));
  });
  return bar;
}

// ---- groups, search, recommended ---------------------------------------------
const SORTS = ["last_seen", "first_seen", "count", "severity", "title", "signal", "assignee"];
export async function groups() {
  const q = currentQuery();
  const form = filterForm("/groups", [
    h("label", {}, "Search (typos welcome)", h("input", { name: "q", type: "search", value: q.get("q") || "", minlength: 2 })),
    select("sort", "Sort", SORTS, q.get("sort") || "last_seen", { any: null }),
    select("direction", "Direction", ["desc", "asc"], q.get("direction") || "desc", { any: null }),
    select("status", "Status", STATUSES, q.get("status")),
  ]);
  const searching = (q.get("q") || "").trim().length >= 2;
  const p = searching ? pick(q, ["q"]) : pick(q, ["sort", "direction", "status", "projectId", "severity"]);
  p.set("limit", "50");
  if (!searching) p.set("offset", String(Number(q.get("offset")) || 0));
  const page = await api(searching ? `/v1/bugs/search?${p}` : `/v1/bugs/groups?${p}`);
  const rows = page.groups.map((g) =>
    h(
      "tr",
      { "data-group": g.groupKey },
      h("td", {}, h("a", { href: `/bugs/${g.sampleBugId}` }, g.sampleTitle), " ", regression(g.anyRegression)),
      h("td", {}, sev(g.severity)),
      h("td", {}, g.status),
      h("td", {}, g.instanceCount > 1 ? groupBadge(g.projectId, g.groupKey, g.instanceCount) : "1 bug"),
      h("td", { class: "hide-narrow" }, String(g.reportCount)),
      h("td", { class: "hide-narrow" }, String(g.userCount)),
      h("td", {}, relTime(g.lastSeen)),
    ),
  );
  show(
    h("h1", {}, searching ? `Search: ${q.get("q")}` : "Groups"),
    searching ? null : viewTabs("/groups"),
    searching ? null : h("p", { class: "muted" }, "One row per error: the bugs of a group share its type and message (its signature) and differ by page."),
    form,
    h("p", { class: "muted", id: "group-count" }, page.total === 0 ? "No group matches." : plural(page.total, "group")),
    table(
      { "aria-describedby": "group-count" },
      ["Sample title", "Severity", "Status", "Bugs", ["Reports", "hide-narrow"], ["Users", "hide-narrow"], "Last seen"],
      rows,
    ),
    searching ? null : pager(page.total, 50, Number(q.get("offset")) || 0, "/groups"),
  );
}

export async function groupInstances(projectId, groupKey) {
  const page = await api(`/v1/bugs/groups/${enc(groupKey)}/instances?projectId=${enc(projectId)}`);
  const bugs = page.bugs || page.instances || [];
  const reports = bugs.reduce((n, b) => n + (b.report_count || 0), 0);
  show(
    h("p", {}, h("a", { href: "/groups" }, "← Groups")),
    h("h1", { id: "group-title" }, bugs.length ? bugs[0].title : "Bugs of one group"),
    h(
      "p",
      { class: "muted", id: "group-summary" },
      `One error, ${plural(page.total, "bug")} (one per page), ${plural(reports, "report")}${page.total > bugs.length ? ` on the ${bugs.length} shown` : ""}.`,
    ),
    bugTable(bugs, ["Page", (b) => h("span", { class: "wrap" }, b.url || "—")]),
  );
}

function bugTable(bugs, extra) {
  if (!bugs.length) return empty("Nothing here.");
  return table(
    {},
    ["Title", "Severity", ["Status", "hide-narrow"], extra ? [extra[0], "hide-narrow"] : null, "Last seen"],
    bugs.map((b) =>
      h(
        "tr",
        { "data-bug": b.id },
        h("td", {}, h("a", { href: `/bugs/${b.id}` }, b.title), " ", regression(b.is_regression)),
        h("td", {}, sev(b.severity)),
        h("td", { class: "hide-narrow" }, b.status),
        extra ? h("td", { class: "hide-narrow" }, extra[1](b)) : null,
        h("td", {}, relTime(b.last_seen)),
      ),
    ),
  );
}

export async function recommended() {
  const q = currentQuery();
  const form = filterForm("/recommended", [
    h("label", {}, "Search", h("input", { name: "q", type: "search", value: q.get("q") || "" })),
    select("severity", "Severity", SEVERITIES, q.get("severity")),
    select("platform", "Platform", PLATFORMS, q.get("platform")),
    select("assignee", "Assignee", ["me", "unassigned"], q.get("assignee"), { labels: { me: "Me", unassigned: "Unassigned" } }),
  ]);
  const p = pick(q, ["q", "severity", "platform", "assignee", "projectId"]);
  p.set("limit", "50");
  const page = await api(`/v1/bugs/recommended?${p}`);
  show(
    h("h1", {}, "Recommended"),
    h("p", { class: "muted" }, "What to fix first: severity, recency, volume, users affected and regressions, one row per bug."),
    form,
    bugTable(page.bugs, ["Score", (b) => String(Math.round(b.recommended_score))]),
  );
}

// ---- one bug -----------------------------------------------------------------
export async function bugPage(id) {
  const base = `/v1/bugs/${enc(id)}`;
  const [b, comments, history, events, watching, similar, anomalies, users, team] = await Promise.all([
    api(base),
    api(`${base}/comments`),
    api(`${base}/history`),
    api(`${base}/events?limit=200`),
    api(`${base}/watching`),
    api(`${base}/similar`),
    api(`${base}/anomalies`),
    api(`${base}/users?limit=20`),
    members(),
  ]);
  const msg = h("span", { class: "muted", role: "status" });
  async function patch(body) {
    msg.textContent = "Saving…";
    try {
      await api(base, { method: "PATCH", body });
      msg.textContent = "Saved";
    } catch (e) {
      msg.textContent = errorText(e);
    }
  }
  const status = h("select", { name: "status", id: "bug-status" }, ...options(STATUSES, b.status));
  status.addEventListener("change", () => patch({ status: status.value }));
  const severity = h("select", { name: "severity", id: "bug-severity" }, ...options(SEVERITIES, b.severity));
  severity.addEventListener("change", () => patch({ severity: severity.value }));
  const assignee = h(
    "select",
    { name: "assignedTo", id: "bug-assignee" },
    h("option", { value: "" }, "Nobody"),
    ...team.map((m) => h("option", { value: m.id, selected: m.id === b.assigned_to }, m.name || m.email)),
  );
  assignee.addEventListener("change", () => patch({ assignedTo: assignee.value || null }));
  const watch = h("button", { type: "button", class: "secondary", "aria-pressed": String(watching.watching) }, watching.watching ? "Unwatch" : "Watch");
  watch.addEventListener("click", async () => {
    const on = watch.getAttribute("aria-pressed") !== "true";
    const r = await api(`${base}/watch`, { method: on ? "POST" : "DELETE" });
    watch.setAttribute("aria-pressed", String(r.watching));
    watch.textContent = r.watching ? "Unwatch" : "Watch";
  });
  const remove = h("button", { type: "button", class: "danger" }, "Delete");
  remove.addEventListener("click", async () => {
    if (!confirm("Delete this bug and its occurrences?")) return;
    await api(base, { method: "DELETE" });
    go("/bugs");
  });

  show(
    h("p", {}, h("a", { href: "/bugs" }, "← Bugs")),
    h("h1", {}, b.title),
    h(
      "div",
      { class: "row controls" },
      sev(b.severity),
      regression(b.is_regression),
      badge(b.signal_class),
      h("label", { class: "row" }, "Status", status),
      h("label", { class: "row" }, "Severity", severity),
      h("label", { class: "row" }, "Assignee", assignee),
      watch,
      remove,
      msg,
    ),
    h(
      "div",
      { class: "grid2" },
      h(
        "section",
        {},
        b.description ? h("pre", {}, b.description) : null,
        b.signal_reason ? h("p", { class: "muted" }, b.signal_reason) : null,
        analysisSection(base),
        h("h2", {}, "Events"),
        timeline(events.events),
        anomalySection(anomalies),
        h("h2", {}, "Recent occurrences"),
        occurrenceList(b.recent_occurrences || []),
        evidenceSection(b.recent_occurrences || []),
        h("h2", {}, "Comments"),
        commentSection(base, comments.comments || [], team),
        h("h2", {}, "History"),
        history.history.length
          ? h(
              "ul",
              { class: "plain", id: "history" },
              ...history.history.map((e) =>
                h("li", {}, `${e.old_status || "—"} → ${e.new_status}`, e.note ? `: ${e.note}` : "", " ", h("small", { class: "muted" }, e.changed_by_name || e.changed_by_email || "", " ", relTime(e.changed_at))),
              ),
            )
          : empty("No status changes yet."),
      ),
      h(
        "aside",
        {},
        agentSection(id),
        verificationSection(id),
        h(
          "dl",
          { class: "card facts" },
          ...[
            ["Reports", b.report_count],
            ["Users affected", b.affected_user_count],
            ["Sessions", b.session_count ?? b.affected_session_count],
            ["Project", b.project_name],
            ["Release", b.latest_release || "—"],
            ["Environment", b.latest_environment || "—"],
          ].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v ?? ""))]),
          h("dt", {}, "First seen"),
          h("dd", {}, relTime(b.first_seen)),
          h("dt", {}, "Last seen"),
          h("dd", {}, relTime(b.last_seen)),
          b.url ? [h("dt", {}, "URL"), h("dd", { class: "wrap" }, b.url)] : null,
        ),
        h("h2", {}, "End users"),
        users.users.length
          ? h("ul", { class: "plain" }, ...users.users.map((u) => h("li", {}, h("a", { href: `/end-users/${enc(u.userKey)}` }, u.email || u.endUserId || u.userKey), " ", h("small", { class: "muted" }, `${u.occurrenceCount}× · `, relTime(u.lastSeen)))))
          : empty("No end user recorded."),
        h("h2", {}, "Similar bugs"),
        similar.similar.length
          ? h("ul", { class: "plain" }, ...similar.similar.map((s) => h("li", {}, h("a", { href: `/bugs/${s.id}` }, s.title), " ", h("small", { class: "muted" }, `${s.similarity_score}/100`))))
          : empty("None found."),
        (b.duplicateCandidates || []).length
          ? [
              h("h2", {}, "Possible duplicates"),
              h("ul", { class: "plain" }, ...b.duplicateCandidates.map((d) => h("li", {}, h("a", { href: `/bugs/${d.otherIssueId}` }, d.otherTitle), " ", h("small", { class: "muted" }, `${d.reason} · ${d.confidence}`)))),
            ]
          : null,
        (b.reporters || []).length
          ? [h("h2", {}, "Reporters"), h("ul", { class: "plain" }, ...b.reporters.map((r) => h("li", {}, h("a", { href: `/reporters/${enc(r.email)}` }, r.email), " ", h("small", { class: "muted" }, `${r.report_count}×`))))]
          : null,
      ),
    ),
  );
}

function occurrenceList(list) {
  if (!list.length) return empty("No occurrences recorded.");
  return h(
    "ul",
    { class: "plain" },
    ...list.slice(0, 10).map((o) =>
      h("li", {}, relTime(o.occurred_at), " ", h("span", { class: "wrap" }, o.url || ""), " ", h("small", { class: "muted" }, [o.platform, o.browser, o.os, o.release_version, o.environment].filter(Boolean).join(" · "))),
    ),
  );
}

// The event timeline: errors first-class (message and stack readable; frames
// resolved with source maps drawn innermost first, sourcemaps.js), other
// events one line each; a long timeline is folded.
function timeline(events) {
  if (!events.length) return empty("No events were sent with the reports.");
  const item = (e) => {
    const d = e.data && typeof e.data === "object" ? e.data : {};
    const isError = /error|exception|crash/i.test(e.event_type);
    const summary = d.message || d.selector || d.url || d.text || (typeof e.data === "string" ? e.data : "");
    return h(
      "li",
      { class: isError ? "ev ev-error" : "ev" },
      h("div", { class: "row" }, h("code", {}, e.event_type), h("span", { class: "wrap" }, String(summary).slice(0, 300)), h("small", { class: "muted" }, new Date(e.timestamp).toLocaleTimeString())),
      hasMappedFrames(d) ? stackView(d) : d.stack ? h("pre", { class: "stack" }, String(d.stack)) : null,
      !d.stack && Object.keys(d).length > 1 ? h("details", {}, h("summary", {}, "Data"), h("pre", {}, JSON.stringify(d, null, 2))) : null,
    );
  };
  const list = h("ol", { class: "plain timeline" }, ...events.slice(0, 50).map(item));
  if (events.length > 50) list.append(h("li", {}, h("details", {}, h("summary", {}, `${events.length - 50} more events`), h("ol", { class: "plain" }, ...events.slice(50).map(item)))));
  return list;
}

function anomalySection(a) {
  if (!a.anomalies.length) return null;
  return [
    h("h2", {}, "Anomalies"),
    h("ul", { class: "plain" }, ...a.anomalies.map((x) => h("li", {}, sev(x.severity), " ", h("strong", {}, x.type.replaceAll("_", " ")), ": ", x.description))),
  ];
}

function analysisSection(base) {
  const out = h("div", { role: "status" });
  const run = h("button", { type: "button", class: "secondary" }, "Analyze with AI");
  run.addEventListener("click", async () => {
    run.disabled = true;
    out.textContent = "Analyzing…";
    try {
      const r = await api(`${base}/analyze`, { method: "POST" });
      const a = r.analysis;
      out.replaceChildren(
        h(
          "div",
          { class: "card" },
          h("h3", {}, "Root cause"),
          h("p", {}, a.rootCause.summary),
          a.rootCause.technicalDetail ? h("p", { class: "muted" }, a.rootCause.technicalDetail) : null,
          h("h3", {}, "Suggested fix"),
          h("p", {}, a.suggestedFix.summary),
          h("ol", {}, ...(a.suggestedFix.steps || []).map((s) => h("li", {}, s))),
          h("p", { class: "muted" }, `Confidence: ${a.confidence}`),
        ),
      );
    } catch (e) {
      out.textContent = e.status === 503 ? "AI analysis is not configured on this server (SERVICE_AI_URL)." : errorText(e);
    }
    run.disabled = false;
  });
  return h("div", { class: "analysis" }, run, out);
}

// Comments; an @email of a teammate notifies them (the picker helps type it).
function commentSection(base, comments, team) {
  const item = (c) => h("li", {}, h("div", { class: "wrap" }, c.content), h("small", { class: "muted" }, c.user_name || c.user_email || "you", " · ", relTime(c.created_at)));
  const list = h("ul", { class: "plain", id: "comments" }, ...comments.map(item));
  const listId = "mention-list";
  const form = actionForm(
    { class: "comment" },
    [
      h("label", {}, "Comment (mention a teammate with @their email)", h("textarea", { name: "content", rows: 3, required: true, maxlength: 10000, list: listId })),
      h("datalist", { id: listId }, ...team.map((m) => h("option", { value: `@${m.email}` }))),
      h("div", { class: "row" }, h("button", { type: "submit" }, "Add comment"), ...team.slice(0, 8).map((m) => mentionButton(m))),
    ],
    async (v, f) => {
      if (!v.content.trim()) return;
      const c = await api(`${base}/comments`, { method: "POST", body: { content: v.content } });
      list.append(item(c));
      f.reset();
    },
  );
  function mentionButton(m) {
    return h(
      "button",
      {
        type: "button",
        class: "chip",
        title: `Mention ${m.email}`,
        onclick: () => {
          const t = form.querySelector("textarea");
          t.value += `${t.value && !t.value.endsWith(" ") ? " " : ""}@${m.email} `;
          t.focus();
        },
      },
      `@${m.name || m.email}`,
    );
  }
  return [list, form];
}

// ---- live, stats, people -----------------------------------------------------
export async function live() {
  const q = currentQuery();
  const body = h("ul", { class: "plain", id: "live" });
  const presence = h("p", { class: "muted", id: "presence" });
  show(h("h1", {}, "Live"), h("p", { class: "muted" }, "Reports as they arrive."), presence, body);
  async function load() {
    const [page, p] = await Promise.all([api(`/v1/bugs/live?${new URLSearchParams({ ...Object.fromEntries(pick(q, ["projectId"])), limit: "50" })}`), api("/v1/bugs/presence")]);
    presence.textContent = `${p.active_sessions} sessions and ${p.active_users} users active now${p.pages.length ? ": " + p.pages.map((x) => `${x.path} (${x.active_sessions})`).join(", ") : ""}`;
    body.replaceChildren(
      ...(page.occurrences.length
        ? page.occurrences.map((o) => h("li", {}, relTime(o.occurred_at || o.created_at), " ", sev(o.severity), " ", h("a", { href: `/bugs/${o.bug_id}` }, o.title || o.bug_id), " ", h("small", { class: "muted" }, o.platform || "")))
        : [h("li", { class: "muted" }, "Nothing yet: reports appear here the moment they arrive.")]),
    );
  }
  const reload = debounce(load);
  // Subscribed first, read second: a report arriving in between is in the read.
  await openStream(reload, reload);
  await load();
  const timer = setInterval(reload, 30000); // presence ages out without events
  onLeave(() => clearInterval(timer));
}

export async function stats() {
  const q = currentQuery();
  const days = q.get("days") || "30";
  const s = await api(`/v1/bugs/stats?${new URLSearchParams({ days, ...(q.get("projectId") ? { projectId: q.get("projectId") } : {}) })}`);
  const a = s.aggregates;
  const prev = s.previous || {};
  const delta = (now, before) => (before === undefined || before === null ? "" : now > before ? ` (▲ from ${before})` : now < before ? ` (▼ from ${before})` : " (=)");
  const card = (k, v, before) => h("div", { class: "card stat" }, h("div", { class: "muted" }, k), h("strong", {}, String(v ?? 0)), h("small", { class: "muted" }, delta(v, before)));
  const sevRows = SEVERITIES.map((x) => [x, a[`sev_${x}`] || 0]);
  const sevMax = Math.max(1, ...sevRows.map((r) => r[1]));
  show(
    h("h1", {}, `Stats (${days} days)`),
    filterForm("/stats", [select("days", "Period", ["7", "30", "90", "365"], days, { any: null, labels: { 7: "7 days", 30: "30 days", 90: "90 days", 365: "1 year" } })], ["projectId"]),
    h(
      "div",
      { class: "row" },
      card("Open", a.open, prev.open),
      card("New bugs", a.total, prev.total),
      card("Critical", a.sev_critical, prev.sev_critical),
      card("Reports", a.total_reports, prev.total_reports),
      card("Health score (lower is better)", s.health_score),
      card("MTTR (hours)", s.mttr_hours ?? "–"),
    ),
    h("h2", {}, "Reports per day"),
    h("div", { class: "card chart" }, barChart("Reports per day", s.timeline, (d) => d.report_count, (d) => `${d.date}: ${d.report_count} reports, ${d.bug_count} new bugs`)),
    h("h2", {}, "Severities"),
    h(
      "div",
      { class: "card" },
      ...sevRows.map(([name, n]) => h("div", { class: "hbar" }, h("span", { class: `sev sev-${name}` }, name), h("meter", { min: 0, max: sevMax, value: n, "aria-label": name }), h("span", {}, String(n)))),
    ),
    h("h2", {}, "Top unresolved"),
    bugTable(s.topBugs, ["Reports", (b) => String(b.report_count)]),
  );
}

export async function endUsers() {
  const q = currentQuery();
  const form = filterForm("/end-users", [h("label", {}, "User id or email (at least 2 characters)", h("input", { name: "q", type: "search", minlength: 2, value: q.get("q") || "" }))]);
  const term = (q.get("q") || "").trim();
  const found = term.length >= 2 ? await api(`/v1/end-users?q=${enc(term)}&limit=50`) : null;
  show(
    h("h1", {}, "End users"),
    form,
    !found
      ? empty("Search the people your apps report for: their id or email.")
      : found.users.length
        ? h("ul", { class: "plain" }, ...found.users.map((u) => h("li", {}, h("a", { href: `/end-users/${enc(u.userKey)}` }, u.email || u.endUserId || u.userKey), " ", h("small", { class: "muted" }, `${u.bugCount} bugs · ${u.occurrenceCount} reports · `, relTime(u.lastSeen)))))
        : empty("Nobody matches."),
  );
}

export async function endUserTimeline(key) {
  const t = await api(`/v1/end-users/${enc(key)}/timeline?limit=100`);
  const id = t.identity;
  show(
    h("p", {}, h("a", { href: "/end-users" }, "← End users")),
    h("h1", {}, id.emails[0] || id.endUserId || id.userKey),
    h("p", { class: "muted" }, `${id.kind} · ${id.bugCount} bugs · ${id.occurrenceCount} reports · ${id.sessionCount} sessions · ${id.platforms.join(", ")} · first seen `, relTime(id.firstSeen)),
    h(
      "ul",
      { class: "plain" },
      ...t.occurrences.map((o) => h("li", {}, relTime(o.occurred_at), " ", sev(o.severity), " ", h("a", { href: `/bugs/${o.bug_id}` }, o.title), " ", h("small", { class: "muted" }, [o.project_name, o.platform, o.url].filter(Boolean).join(" · ")))),
    ),
  );
}

export async function reporter(email) {
  const r = await api(`/v1/bugs/reporters/${enc(email)}/bugs`);
  show(
    h("p", {}, h("a", { href: "/bugs" }, "← Bugs")),
    h("h1", {}, `Reported by ${r.email}`),
    h("p", { class: "muted" }, `${r.stats.total_bugs} bugs, first `, relTime(r.stats.first_report), ", last ", relTime(r.stats.last_report)),
    bugTable(r.bugs, ["Reports", (b) => String(b.report_count)]),
  );
}
