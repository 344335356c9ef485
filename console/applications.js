// Applications (issue 30 items 2, 3 and 6; Spec 2 "Applications"), admins and
// managers:
//   /applications?project=ID  a project's applications (cursor pages of 50
//                  with "More"), each with its installations and their live
//                  capture status (waiting, or the first capture's receipt:
//                  time, SDK, source, platform, the bug while its evidence
//                  exists) and its builds; forms add an application, an
//                  installation and a build. Each form keeps one requestId
//                  until it succeeds or its fields change, so resending after
//                  an uncertain failure is a retry the server recognises.
// Live: the page re-reads the waiting installations' capture-status when the
// bug stream reports a capture of the project (and every 15 s, also under a
// support session, which has no stream).
import { ApiError, actionForm, api, copyButton, debounce, empty, enc, errorText, go, h, input, onLeave, openStream, relTime, show, table } from "./core.js";

const POLL_MS = 15000;

// A random UUID (v4) for requestIds; crypto.randomUUID needs a secure context.
function uuid() {
  if (globalThis.crypto && crypto.randomUUID && globalThis.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

// A create form whose requestId stays fixed until it succeeds or an input changes.
function createForm(attrs, children, send) {
  let requestId = uuid();
  const form = actionForm(attrs, children, async (v, f) => {
    await send({ ...v, requestId }, f);
    requestId = uuid();
  });
  form.addEventListener("input", () => (requestId = uuid()));
  return form;
}

const base = (project) => `/v1/applications/projects/${enc(project)}`;

// The capture status cell of an installation.
function statusCell(status) {
  const fc = status && status.firstCapture;
  if (!status || status.state !== "capture_received" || !fc) {
    return h("span", { class: "capture-state", "data-state": "waiting" }, h("strong", {}, "Waiting"), h("div", { class: "muted" }, "for a first capture"));
  }
  const gone = fc.evidenceAvailability !== "available";
  return h(
    "span",
    { class: "capture-state", "data-state": "capture_received", "data-occurrence": fc.occurrenceId },
    h("strong", {}, "First capture received "),
    relTime(fc.acceptedAt),
    h("div", { class: "muted" }, `${fc.sdkName} ${fc.sdkVersion} · ${fc.captureSource} · ${fc.platform}${fc.osFamily ? `/${fc.osFamily}` : ""}`),
    gone
      ? h("div", { class: "muted capture-evidence" }, "Evidence deleted or expired")
      : fc.bugId
        ? h("div", {}, h("a", { href: `/bugs/${enc(fc.bugId)}`, class: "capture-bug" }, "Open the bug"))
        : null,
  );
}

function installationRow(project, app, inst, statuses) {
  const cell = h("td", { class: "capture-cell" }, statusCell(inst.captureState === "capture_received" ? null : { state: "waiting" }));
  const tr = h(
    "tr",
    { "data-installation": inst.id, "data-state": inst.captureState },
    h("td", {}, inst.label || h("span", { class: "muted" }, "(no label)")),
    h("td", {}, h("code", {}, inst.id), " ", copyButton(inst.id)),
    cell,
    h("td", { class: "hide-narrow" }, relTime(inst.createdAt)),
  );
  const refresh = async () => {
    const s = await api(`${base(project)}/${enc(app.id)}/installations/${enc(inst.id)}/capture-status`);
    cell.replaceChildren(statusCell(s));
    tr.dataset.state = s.state;
  };
  statuses.push({ tr, refresh });
  return tr;
}

async function applicationCard(project, app, statuses, reload) {
  const [installations, builds] = await Promise.all([
    api(`${base(project)}/${enc(app.id)}/installations`),
    api(`${base(project)}/${enc(app.id)}/builds`),
  ]);
  const instBody = h("tbody", {}, ...installations.items.map((i) => installationRow(project, app, i, statuses)));
  const buildRows = builds.items.map((b) =>
    h("tr", { "data-build": b.id }, h("td", {}, h("code", {}, b.sourceRevision)), h("td", {}, h("code", { class: "sha" }, b.artifactSha256)), h("td", { class: "hide-narrow" }, relTime(b.createdAt))),
  );
  const addInstallation = createForm(
    { class: "row add-installation" },
    [input("label", "Label", "text", { maxlength: 200, placeholder: "e.g. QA iPhone" }), h("button", { type: "submit" }, "Add installation")],
    async (v) => {
      const body = { requestId: v.requestId };
      if ((v.label || "").trim()) body.label = v.label.trim();
      await api(`${base(project)}/${enc(app.id)}/installations`, { method: "POST", body });
      await reload();
    },
  );
  const addBuild = createForm(
    { class: "row add-build" },
    [
      input("sourceRevision", "Source revision", "text", { maxlength: 200, required: true, placeholder: "commit or tag" }),
      input("artifactSha256", "Artifact SHA-256", "text", { maxlength: 64, minlength: 64, required: true, pattern: "[0-9a-fA-F]{64}" }),
      h("button", { type: "submit" }, "Register build"),
    ],
    async (v) => {
      await api(`${base(project)}/${enc(app.id)}/builds`, {
        method: "POST",
        body: { requestId: v.requestId, sourceRevision: (v.sourceRevision || "").trim(), artifactSha256: (v.artifactSha256 || "").trim() },
      });
      await reload();
    },
  );
  return h(
    "section",
    { class: "card application", "data-application": app.id },
    h("h2", {}, app.name, " ", h("code", { class: "muted" }, app.identifier)),
    h("p", { class: "muted" }, "Application id ", h("code", {}, app.id), " ", copyButton(app.id)),
    h("h3", {}, "Installations"),
    installations.items.length
      ? table({ class: "installations", id: `installations-${app.id}` }, ["Label", "Installation id", "Capture status", ["Created", "hide-narrow"]], instBody)
      : empty("No installations yet."),
    installations.nextCursor ? h("p", { class: "muted" }, "Showing the first 50 installations.") : null,
    addInstallation,
    h("h3", {}, "Builds"),
    buildRows.length ? table({ class: "builds" }, ["Source revision", "Artifact SHA-256", ["Registered", "hide-narrow"]], buildRows) : empty("No builds yet."),
    addBuild,
  );
}

export async function applications() {
  const { projects } = await api("/v1/projects");
  if (!projects.length) return show(h("h1", {}, "Applications"), empty("Create a project first."));
  const params = new URLSearchParams(location.search);
  const project = projects.some((p) => p.id === params.get("project")) ? params.get("project") : projects[0].id;

  const statuses = [];
  const list = h("div", { id: "applications" });
  const more = h("p", {});
  const err = h("p", { class: "error", role: "alert", id: "applications-error" });
  let cursor = null;

  async function page(next) {
    const q = next ? `?cursor=${enc(next)}` : "";
    const r = await api(`${base(project)}${q}`);
    for (const app of r.items) list.append(await applicationCard(project, app, statuses, reload));
    cursor = r.nextCursor;
    more.replaceChildren();
    if (cursor) {
      more.append(
        h(
          "button",
          { type: "button", class: "secondary", id: "applications-more", onclick: () => page(cursor).catch((e) => (err.textContent = errorText(e))) },
          "More applications",
        ),
      );
    }
    if (!list.children.length) list.replaceChildren(empty("No applications yet."));
    // Received installations show their receipt at once.
    await Promise.all(statuses.filter((s) => s.tr.dataset.state === "capture_received" && !s.shown).map((s) => ((s.shown = true), s.refresh())));
  }
  async function reload() {
    statuses.length = 0;
    list.replaceChildren();
    await page(null);
  }
  // Waiting installations are read again on a capture of the project.
  const recheck = async () => {
    await Promise.all(statuses.filter((s) => s.tr.dataset.state === "waiting" && s.tr.isConnected).map((s) => s.refresh()));
  };
  const soon = debounce(recheck, 300);

  const picker = h(
    "label",
    {},
    "Project ",
    h(
      "select",
      { id: "applications-project", onchange: (e) => go(`/applications?project=${enc(e.target.value)}`, true) },
      ...projects.map((p) => h("option", { value: p.id, selected: p.id === project }, p.name)),
    ),
  );
  const form = createForm(
    { class: "card block", id: "application-form" },
    [
      h("h2", {}, "New application"),
      input("name", "Name", "text", { maxlength: 200, required: true, placeholder: "e.g. Shop for iOS" }),
      input("identifier", "Identifier", "text", { maxlength: 255, required: true, placeholder: "bundle id, package or origin" }),
      h("button", { type: "submit" }, "Add application"),
    ],
    async (v) => {
      if (!(v.name || "").trim() || !(v.identifier || "").trim()) throw new ApiError(400, { error: "Name and identifier are required." });
      await api(base(project), { method: "POST", body: { requestId: v.requestId, name: v.name.trim(), identifier: v.identifier.trim() } });
      await reload();
    },
  );

  await openStream((type, e) => {
    if ((type === "new_bug" || type === "duplicate" || type === "regression") && (!e.projectId || e.projectId === project)) soon();
  }, soon);
  await page(null);
  const timer = setInterval(() => recheck().catch(() => {}), POLL_MS);
  onLeave(() => clearInterval(timer));

  show(
    h("h1", {}, "Applications"),
    h(
      "p",
      { class: "muted" },
      "Register the applications that report to a project, their installations and builds. An SDK names its installation in ",
      h("code", {}, "metadata.capture"),
      " (applicationId, installationId, sdkName, sdkVersion, source, …); an installation's first qualifying capture becomes its receipt.",
    ),
    projects.length > 1 ? picker : null,
    err,
    list,
    more,
    form,
  );
}
