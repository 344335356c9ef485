// Source maps in the console (issue 31 item 4; README "Source maps"): the
// bug page's stack view of an error event whose frames were resolved at
// ingest, and the project page's Source maps card.
//
// Stack view: an error event's data.frames (Sentry's order, outermost
// first) drawn innermost first. A resolved frame (its values are the
// original's, those sent kept in `minified`) shows the original function and
// file:line:column with its context lines, the line itself highlighted;
// "Show minified" (per frame, or for the whole stack) shows the frame as
// sent. A frame that stayed minified shows why (`sourcemap.reason`) in plain
// words. Drawn only when at least one frame has `sourcemap`; otherwise the
// page shows the stack text as before.
//
// Card: GET /v1/sourcemaps/projects/:projectId/bundles (a bundle's files:
// .../bundles/:bundleId), .../debug-ids and .../releases, and the
// sentry-cli commands that upload to this project.
import { LeftPage, api, copyButton, enc, errorText, h, relTime, session, support, table } from "./core.js";

// ---- the stack view ------------------------------------------------------------

const REASONS = {
  map_not_found: "no source map uploaded for this file",
  no_location: "the frame has no line and column to look up",
  map_malformed: "the uploaded source map could not be read (not valid Source Map v3)",
  map_unsupported: "the source map uses a form that is not supported",
  map_too_large: "the source map is over the size limits",
  line_out_of_range: "the line is past the end of the source map (a map of another build?)",
  no_mapping: "the source map maps nothing at this line and column",
  map_unavailable: "the source map could not be read from storage when the report arrived",
};

function text(v) {
  return v === undefined || v === null ? "" : String(v);
}
function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function sourcemapOf(f) {
  return isObject(f.sourcemap) ? f.sourcemap : null;
}
function resolved(f) {
  return isObject(f.minified);
}
export function reasonText(reason) {
  const r = text(reason) || "unknown";
  return REASONS[r] ? `${REASONS[r]} (${r})` : `not resolved (${r})`;
}
function position(file, line, col) {
  return `${text(file) || "?"}${Number.isFinite(line) ? `:${line}${Number.isFinite(col) ? `:${col}` : ""}` : ""}`;
}
// The frame as the SDK sent it.
function sentLine(f) {
  return h(
    "span",
    { class: "frame-line" },
    h("code", { class: "frame-fn" }, text(f.function) || "<anonymous>"),
    " at ",
    h("code", { class: "frame-loc wrap" }, position(f.abs_path || f.filename || f.module, f.lineno, f.colno)),
  );
}
// The original source lines around the frame's line, numbered.
function contextTable(m) {
  if (typeof m.context_line !== "string") return null;
  const pre = Array.isArray(m.pre_context) ? m.pre_context : [];
  const post = Array.isArray(m.post_context) ? m.post_context : [];
  const line = Number(m.lineno);
  const first = Number.isFinite(line) ? line - pre.length : 1;
  const row = (t, n, current) =>
    h("tr", { class: current ? "current" : null, "aria-current": current ? "true" : null }, h("td", { class: "ln" }, String(n)), h("td", {}, h("code", {}, text(t))));
  return h(
    "table",
    { class: "context" },
    h("tbody", {}, ...pre.map((t, i) => row(t, first + i, false)), row(m.context_line, first + pre.length, true), ...post.map((t, i) => row(t, first + pre.length + 1 + i, false))),
  );
}
function setMinified(li, on) {
  for (const el of li.querySelectorAll(".frame-original")) el.hidden = on;
  for (const el of li.querySelectorAll(".frame-minified")) el.hidden = !on;
  const b = li.querySelector("button.frame-toggle");
  if (b) {
    b.setAttribute("aria-pressed", String(on));
    b.textContent = on ? "Show original" : "Show minified";
  }
  li.dataset.view = on ? "minified" : "original";
}
function frameItem(f, index) {
  const m = sourcemapOf(f);
  const attrs = { "data-frame": String(index) };
  if (resolved(f)) {
    const toggle = h("button", { type: "button", class: "chip frame-toggle", "aria-pressed": "false" }, "Show minified");
    const li = h(
      "li",
      { ...attrs, class: "frame frame-resolved", "data-view": "original" },
      h(
        "div",
        { class: "row frame-head" },
        h(
          "span",
          { class: "frame-line frame-original" },
          h("code", { class: "frame-fn" }, text(f.function) || "<anonymous>"),
          " at ",
          h("code", { class: "frame-loc wrap" }, position(f.filename || f.abs_path, f.lineno, f.colno)),
        ),
        h("span", { class: "frame-minified", hidden: true }, sentLine(f.minified)),
        f.in_app === false ? h("small", { class: "muted" }, "library") : null,
        toggle,
      ),
      h("div", { class: "frame-original" }, contextTable(f)),
    );
    toggle.addEventListener("click", () => setMinified(li, li.dataset.view !== "minified"));
    return li;
  }
  if (m) {
    return h(
      "li",
      { ...attrs, class: "frame frame-unresolved", "data-reason": text(m.reason) },
      h("div", { class: "row frame-head" }, sentLine(f)),
      h("small", { class: "muted frame-reason" }, "Stayed minified: ", reasonText(m.reason)),
    );
  }
  return h("li", { ...attrs, class: "frame" }, h("div", { class: "row frame-head" }, sentLine(f)));
}

// Whether the event's frames carry resolution results (the stack view).
export function hasMappedFrames(d) {
  return Array.isArray(d.frames) && d.frames.some((f) => isObject(f) && sourcemapOf(f));
}

// The stack view of an error event's data (see the top of the file).
export function stackView(d) {
  const frames = d.frames.filter(isObject);
  const items = frames.map((f, i) => frameItem(f, i)).reverse();
  const count = frames.filter(resolved).length;
  const list = h("ol", { class: "plain frames" }, ...items);
  const all = h("button", { type: "button", class: "secondary stack-toggle", "aria-pressed": "false" }, "Show minified");
  all.addEventListener("click", () => {
    const on = all.getAttribute("aria-pressed") !== "true";
    all.setAttribute("aria-pressed", String(on));
    all.textContent = on ? "Show original" : "Show minified";
    for (const li of list.querySelectorAll("li.frame-resolved")) setMinified(li, on);
  });
  return h(
    "div",
    { class: "stack-view" },
    h(
      "div",
      { class: "row" },
      h("small", { class: "muted" }, `${count} of ${frames.length} frames resolved with source maps · innermost first`),
      count ? all : null,
    ),
    list,
  );
}

// ---- the project's card ----------------------------------------------------------

const PAGE = 20;

function size(n) {
  const v = Number(n) || 0;
  if (v < 1024) return `${v} B`;
  if (v < 1024 * 1024) return `${(v / 1024).toFixed(1)} KB`;
  return `${(v / (1024 * 1024)).toFixed(1)} MB`;
}
function dash(v) {
  return text(v) || "—";
}

// The organization's slug for --org (the server takes the id too).
async function orgSlug() {
  const sup = support.get();
  const s = session.get() || {};
  const orgId = (sup && sup.orgId) || s.orgId || "";
  try {
    const me = await api("/v1/auth/me");
    const here = (me.orgs || []).find((o) => o.orgId === orgId);
    return (here && here.orgSlug) || orgId;
  } catch (e) {
    if (e instanceof LeftPage) throw e;
    return orgId;
  }
}

function commands(org, project) {
  return [
    "sentry-cli sourcemaps inject dist/",
    `sentry-cli --url ${location.origin} --auth-token <agent token> sourcemaps upload --org ${org} --project ${project} --release <release> dist/`,
  ].join("\n");
}

// A list read page by page: `fetchPage(offset)` resolves with {rows, total?};
// "Show more" reads the next page into `body`.
function paged(body, more, fetchPage, row, onError) {
  let offset = 0;
  async function next() {
    more.disabled = true;
    try {
      const page = await fetchPage(offset);
      body.append(...page.rows.flatMap(row));
      offset += page.rows.length;
      more.hidden = page.total !== undefined ? offset >= page.total : page.rows.length < PAGE;
    } catch (e) {
      if (!(e instanceof LeftPage)) onError(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", next);
  return next;
}

function bundleRows(base, b) {
  const detail = h("tr", { class: "bundle-files", "data-bundle-files": b.id, hidden: true }, h("td", { colspan: 6 }, h("p", { class: "muted" }, "Loading…")));
  const open = h("button", { type: "button", class: "chip bundle-open", "aria-expanded": "false" }, "Files");
  let loaded = false;
  open.addEventListener("click", async () => {
    const on = open.getAttribute("aria-expanded") !== "true";
    open.setAttribute("aria-expanded", String(on));
    detail.hidden = !on;
    if (!on || loaded) return;
    loaded = true;
    try {
      const r = await api(`${base}/bundles/${enc(b.id)}`);
      detail.firstChild.replaceChildren(
        table(
          { class: "bundle-file-list" },
          ["URL", "Type", "Debug id", "Source map", "Size"],
          (r.bundle.files || []).map((f) =>
            h(
              "tr",
              { "data-type": text(f.type) },
              h("td", { class: "wrap" }, h("code", {}, text(f.url))),
              h("td", {}, text(f.type)),
              h("td", { class: "wrap" }, f.debugId ? h("code", {}, text(f.debugId)) : "—"),
              h("td", { class: "wrap" }, dash(f.sourcemap)),
              h("td", { class: "num" }, size(f.byteCount)),
            ),
          ),
        ),
      );
    } catch (e) {
      if (e instanceof LeftPage) return;
      loaded = false;
      detail.firstChild.replaceChildren(h("p", { class: "error" }, errorText(e)));
    }
  });
  return [
    h(
      "tr",
      { "data-bundle": b.id },
      h("td", {}, relTime(b.createdAt)),
      h("td", { class: "wrap" }, dash(b.release)),
      h("td", {}, dash(b.dist)),
      h("td", { class: "num" }, String(b.fileCount ?? "")),
      h("td", { class: "num hide-narrow" }, size(b.byteCount)),
      h("td", {}, open),
    ),
    detail,
  ];
}

function render(box, projectId, org, project, storage) {
  const base = `/v1/sourcemaps/projects/${enc(projectId)}`;
  const error = h("p", { class: "error", role: "alert" });
  const shown = (e) => (error.textContent = errorText(e));
  const bundlesTotal = h("span", { class: "muted", id: "sourcemap-bundle-count" });
  const bundles = h("tbody");
  const moreBundles = h("button", { type: "button", class: "secondary", hidden: true }, "Show more bundles");
  const ids = h("tbody");
  const moreIds = h("button", { type: "button", class: "secondary", hidden: true }, "Show more debug ids");
  const releases = h("tbody");
  const moreReleases = h("button", { type: "button", class: "secondary", hidden: true }, "Show more releases");
  const command = commands(org, project);
  box.replaceChildren(
    h("h2", {}, "Source maps"),
    h(
      "p",
      { class: "muted" },
      "Minified stack traces of this project are resolved at ingest with the source maps uploaded here: by debug id first (",
      h("code", {}, "sentry-cli sourcemaps inject"),
      "), else by release, dist and the file's URL path. Upload with the unmodified sentry-cli and an ",
      h("a", { href: "/agent-tokens" }, "agent token"),
      " with publish_symbols and a grant for this project; upload before the reports arrive.",
    ),
    h("div", { class: "row" }, h("pre", { id: "sourcemaps-command", class: "wrap" }, command), copyButton(command, "Copy commands")),
    storage === false ? h("p", { class: "error", id: "sourcemaps-unavailable" }, "Storage is not configured on this server (SERVICE_EVIDENCE_DIR): uploads are refused (503).") : null,
    error,
    h("h3", {}, "Bundles ", bundlesTotal),
    table({ id: "sourcemap-bundles" }, ["Uploaded", "Release", "Dist", "Files", ["Size", "hide-narrow"], ""], bundles),
    moreBundles,
    h("h3", {}, "Debug ids"),
    table({ id: "sourcemap-debug-ids" }, ["Debug id", "Files", "Uploaded"], ids),
    moreIds,
    h("h3", {}, "Releases"),
    table({ id: "sourcemap-releases" }, ["Release", "Dist", "Bundles", "Files", "Last upload"], releases),
    moreReleases,
  );
  const none = (body, cols, what) => {
    if (!body.children.length) body.append(h("tr", { class: "empty-row" }, h("td", { colspan: cols, class: "muted" }, what)));
  };
  const loadBundles = paged(
    bundles,
    moreBundles,
    async (offset) => {
      const r = await api(`${base}/bundles?limit=${PAGE}&offset=${offset}`);
      bundlesTotal.textContent = `(${r.total})`;
      return { rows: r.bundles, total: r.total };
    },
    (b) => bundleRows(base, b),
    shown,
  );
  const loadIds = paged(
    ids,
    moreIds,
    async (offset) => ({ rows: (await api(`${base}/debug-ids?limit=${PAGE}&offset=${offset}`)).debugIds }),
    (d) => [
      h(
        "tr",
        { "data-debug-id": text(d.debugId) },
        h("td", { class: "wrap" }, h("code", {}, text(d.debugId))),
        h("td", { class: "wrap" }, (d.urls || []).map(text).join(", "), " ", h("small", { class: "muted" }, (d.types || []).map(text).join(", "))),
        h("td", {}, relTime(d.lastUploadAt)),
      ),
    ],
    shown,
  );
  const loadReleases = paged(
    releases,
    moreReleases,
    async (offset) => ({ rows: (await api(`${base}/releases?limit=${PAGE}&offset=${offset}`)).releases }),
    (r) => [
      h(
        "tr",
        { "data-release": text(r.release) },
        h("td", { class: "wrap" }, text(r.release)),
        h("td", {}, dash(r.dist)),
        h("td", { class: "num" }, String(r.bundleCount ?? "")),
        h("td", { class: "num" }, String(r.fileCount ?? "")),
        h("td", {}, relTime(r.lastUploadAt)),
      ),
    ],
    shown,
  );
  Promise.all([
    loadBundles().then(() => none(bundles, 6, "No source maps uploaded yet.")),
    loadIds().then(() => none(ids, 3, "No debug ids yet (sentry-cli sourcemaps inject writes them).")),
    loadReleases().then(() => none(releases, 5, "No release named by an upload yet.")),
  ]).finally(() => box.setAttribute("data-loaded", "true"));
}

// The project page's card; fills itself in. `project` is the project as
// GET /v1/projects lists it (id, slug).
export function sourcemapsSection(project) {
  const box = h("section", { class: "card block", id: "sourcemaps" }, h("h2", {}, "Source maps"), h("p", { class: "muted" }, "Loading…"));
  // Source maps are stored beside the evidence files (SERVICE_EVIDENCE_DIR).
  const storage = api("/v1/evidence/capabilities").then(
    (c) => !!(c && c.configured),
    (e) => {
      if (e instanceof LeftPage) throw e;
      return null;
    },
  );
  Promise.all([orgSlug(), storage]).then(
    ([org, configured]) => render(box, project.id, org, project.slug || project.id, configured),
    (e) => {
      if (!(e instanceof LeftPage)) box.replaceChildren(h("h2", {}, "Source maps"), h("p", { class: "error" }, errorText(e)));
    },
  );
  return box;
}
