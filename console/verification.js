// Verification (issue 30 item 4; README "Verification"):
//   /verification  organization admins: runner and device enrollment of a
//                  project (GET /v1/agent-work/verification/enrollment):
//                  runners (public key fingerprint, trust, runtimes, state)
//                  and devices, a form for each (POST /runners, /devices),
//                  Revoke (POST /runners/revoke, /devices/revoke).
//   verificationSection(bugId)  the bug page's card: the verified-fixed state
//                  and the issue's receipts (GET /v1/bugs/:id/verification).
import { actionForm, api, empty, enc, errorText, h, input, relTime, show, table } from "./core.js";

export const RUNTIMES = ["web", "node", "ios", "macos", "android", "linux", "windows"];
const BASE = "/v1/agent-work/verification";

// A commandId (crypto.randomUUID where the page is a secure context).
function commandId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const STATE_LABELS = { verified_fixed: "Verified fixed", unproven: "Unproven" };
const REASONS = {
  recurrence: "seen again since",
  regrouped: "regrouped by a merge",
  runner_revoked: "a runner was revoked",
  issue_deleted: "the issue was deleted",
  evidence_revoked: "evidence was removed",
};

// ---- the bug page ----------------------------------------------------------------

export function verificationSection(bugId) {
  const box = h("section", { id: "verification", class: "card" }, h("h2", {}, "Verification"), h("p", { class: "muted" }, "Loading…"));
  api(`/v1/bugs/${enc(bugId)}/verification`)
    .then((v) => {
      const f = v.verification;
      const state = f
        ? h(
            "p",
            {},
            h("strong", { id: "verification-state", "data-state": f.state }, STATE_LABELS[f.state] || f.state),
            " ",
            h("span", { class: "muted" }, relTime(f.promotedAt)),
            f.reason ? h("span", { class: "muted" }, ` (${REASONS[f.reason] || f.reason})`) : null,
          )
        : h("p", {}, h("strong", { id: "verification-state", "data-state": "none" }, "Not verified"));
      const rows = v.receipts.map((r) =>
        h(
          "tr",
          { "data-id": r.receiptId, "data-status": r.status },
          h("td", { class: "receipt-status" }, r.status),
          h("td", {}, r.trust || h("span", { class: "muted" }, "unsigned")),
          h("td", {}, r.runtime),
          h("td", { class: "hide-narrow" }, h("code", {}, r.buildId.slice(0, 8))),
          h("td", {}, `${r.tests.filter((t) => t.outcome === "passed").length}/${r.tests.length} passed`),
          h("td", { class: "receipt-applicability" }, r.applicability.state === "current" ? "current" : `historical: ${REASONS[r.applicability.reason] || r.applicability.reason}`),
          h("td", { class: "hide-narrow" }, relTime(r.measuredAt)),
        ),
      );
      box.replaceChildren(
        h("h2", {}, "Verification"),
        state,
        rows.length
          ? table({ id: "verification-receipts" }, ["Receipt", "Trust", "Runtime", ["Build", "hide-narrow"], "Tests", "Applies", ["Measured", "hide-narrow"]], rows)
          : empty("No verification receipts yet."),
      );
    })
    .catch((e) => box.replaceChildren(h("h2", {}, "Verification"), h("p", { class: "error" }, errorText(e))));
  return box;
}

// ---- enrollment (admins) -----------------------------------------------------------

function checks(name, values, checked) {
  return h(
    "fieldset",
    { class: "checks", id: `${name}-runtimes` },
    h("legend", {}, "Allowed runtimes"),
    ...values.map((v) => h("label", { class: "check" }, h("input", { type: "checkbox", name: `runtime:${v}`, value: v, checked: checked.includes(v) }), ` ${v}`)),
  );
}

async function listAll(path) {
  const r = await api(path);
  return r.items || [];
}

export async function enrollment() {
  const { projects } = await api("/v1/projects");
  if (!projects.length) return show(h("h1", {}, "Verification"), empty("No projects yet."));
  const wanted = new URLSearchParams(location.search).get("project");
  const project = projects.find((p) => p.id === wanted) || projects[0];
  const pid = project.id;
  const [e, apps] = await Promise.all([api(`${BASE}/enrollment?projectId=${enc(pid)}`), listAll(`/v1/applications/projects/${enc(pid)}`).catch(() => [])]);
  const installations = {};
  await Promise.all(apps.map(async (a) => (installations[a.id] = await listAll(`/v1/applications/projects/${enc(pid)}/${enc(a.id)}/installations`).catch(() => []))));
  const appName = Object.fromEntries(apps.map((a) => [a.id, a.name]));
  const runnerName = Object.fromEntries(e.runners.map((r) => [r.id, r.name]));
  const err = h("p", { class: "error", role: "alert", id: "verification-error" });

  const revoke = (kind, id, label) =>
    h(
      "button",
      {
        type: "button",
        class: "danger",
        "aria-label": `Revoke ${label}`,
        onclick: async () => {
          err.textContent = "";
          try {
            await api(`${BASE}/${kind}s/revoke`, { method: "POST", body: { commandId: commandId(), projectId: pid, [`${kind}Id`]: id } });
            await enrollment();
          } catch (x) {
            err.textContent = errorText(x);
          }
        },
      },
      "Revoke",
    );

  const runnerRows = e.runners.map((r) =>
    h(
      "tr",
      { "data-id": r.id, "data-state": r.status },
      h("td", {}, h("strong", {}, r.name)),
      h("td", { class: "hide-narrow" }, h("code", { class: "fingerprint" }, r.publicKeyFingerprint.slice(0, 23) + "…")),
      h("td", {}, r.trustLevel),
      h("td", {}, r.allowedRuntimes.join(", ")),
      h("td", { class: "runner-state" }, r.status),
      h("td", {}, r.status === "active" ? revoke("runner", r.id, r.name) : null),
    ),
  );
  const deviceRows = e.devices.map((d) =>
    h(
      "tr",
      { "data-id": d.id, "data-state": d.status },
      h("td", {}, h("strong", {}, d.name)),
      h("td", {}, runnerName[d.runnerId] || d.runnerId),
      h("td", {}, appName[d.applicationId] || d.applicationId),
      h("td", {}, `${d.runtime} ${d.osVersion}`),
      h("td", {}, d.physicalDeviceConfirmed ? "physical" : ""),
      h("td", { class: "device-state" }, d.status),
      h("td", {}, d.status === "active" ? revoke("device", d.id, d.name) : null),
    ),
  );

  const runnerForm = actionForm(
    { class: "card block", id: "runner-form" },
    [
      h("h2", {}, "Enroll a runner"),
      input("name", "Name", "text", { maxlength: 100, required: true, placeholder: "e.g. CI web runner" }),
      h("label", {}, "Ed25519 public key (PEM)", h("textarea", { name: "publicKeyPem", rows: 4, required: true, placeholder: "-----BEGIN PUBLIC KEY-----" })),
      h("p", { class: "muted" }, "Make one with ", h("code", {}, "openssl genpkey -algorithm ed25519"), " and paste only the output of ", h("code", {}, "openssl pkey -pubout"), ". Never paste a private key."),
      h("label", {}, "Trust", h("select", { name: "trustLevel" }, h("option", { value: "ci" }, "CI"), h("option", { value: "device_lab" }, "Device lab"))),
      checks("runner", RUNTIMES, ["web"]),
      h("button", { type: "submit" }, "Enroll runner"),
    ],
    async (v) => {
      const allowedRuntimes = RUNTIMES.filter((r) => v[`runtime:${r}`]);
      await api(`${BASE}/runners`, {
        method: "POST",
        body: { commandId: commandId(), projectId: pid, name: (v.name || "").trim(), publicKeyPem: v.publicKeyPem || "", trustLevel: v.trustLevel, allowedRuntimes },
      });
      await enrollment();
    },
  );

  const active = e.runners.filter((r) => r.status === "active");
  const appOptions = apps.flatMap((a) => (installations[a.id] || []).map((i) => h("option", { value: `${a.id}/${i.id}` }, `${a.name} · ${i.label || i.id.slice(0, 8)}`)));
  const deviceForm =
    active.length && appOptions.length
      ? actionForm(
          { class: "card block", id: "device-form" },
          [
            h("h2", {}, "Enroll a device"),
            input("name", "Name", "text", { maxlength: 100, required: true, placeholder: "e.g. iPhone 15 in the lab" }),
            h("label", {}, "Runner", h("select", { name: "runnerId" }, ...active.map((r) => h("option", { value: r.id }, r.name)))),
            h("label", {}, "Application and installation", h("select", { name: "target" }, ...appOptions)),
            h("label", {}, "Runtime", h("select", { name: "runtime" }, ...RUNTIMES.map((r) => h("option", { value: r }, r)))),
            input("deviceIdentifierSha256", "Device identifier (SHA-256, 64 hex)", "text", { maxlength: 64, required: true }),
            input("osVersion", "OS version", "text", { maxlength: 100, required: true }),
            h("label", { class: "check" }, h("input", { type: "checkbox", name: "physicalDeviceConfirmed", value: "1" }), " A physical device (required for iOS)"),
            h("button", { type: "submit" }, "Enroll device"),
          ],
          async (v) => {
            const [applicationId, installationId] = (v.target || "/").split("/");
            await api(`${BASE}/devices`, {
              method: "POST",
              body: {
                commandId: commandId(),
                projectId: pid,
                name: (v.name || "").trim(),
                runnerId: v.runnerId,
                applicationId,
                installationId,
                runtime: v.runtime,
                deviceIdentifierSha256: (v.deviceIdentifierSha256 || "").trim().toLowerCase(),
                osVersion: (v.osVersion || "").trim(),
                physicalDeviceConfirmed: !!v.physicalDeviceConfirmed,
              },
            });
            await enrollment();
          },
        )
      : h("p", { class: "muted", id: "device-form" }, "Devices need an active runner and an application with an installation."),
    picker = h(
      "label",
      {},
      "Project ",
      h(
        "select",
        { id: "verification-project", onchange: (ev) => (location.search = `?project=${enc(ev.target.value)}`) },
        ...projects.map((p) => h("option", { value: p.id, selected: p.id === pid }, p.name)),
      ),
    );

  show(
    h("h1", {}, "Verification"),
    h("p", { class: "muted" }, "Runners sign verification receipts with their Ed25519 key; agents promote a bug to verified fixed with current receipts covering every application and runtime it was seen on."),
    picker,
    err,
    h("h2", {}, "Runners"),
    runnerRows.length ? table({ id: "runners" }, ["Runner", ["Key", "hide-narrow"], "Trust", "Runtimes", "State", ""], runnerRows) : empty("No runners enrolled."),
    runnerForm,
    h("h2", {}, "Devices"),
    deviceRows.length ? table({ id: "devices" }, ["Device", "Runner", "Application", "Runtime", "", "State", ""], deviceRows) : empty("No devices enrolled."),
    deviceForm,
  );
}
