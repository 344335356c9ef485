// Agent tokens (issue 29 item 6; Spec 2 "Agent tokens"), admins and managers:
//   /agent-tokens  the organization's tokens (GET /v1/org/agent-pats): name and
//                  prefix, scopes, project grants, expiry, last use, state; a
//                  form makes one (POST) and shows its secret once; each live
//                  token can be edited (PATCH with expectedRevision: a 409 asks
//                  the person to reload) or revoked (DELETE).
import { ApiError, actionForm, api, copyButton, empty, errorText, h, input, relTime, show, table } from "./core.js";

export const AGENT_SCOPES = [
  ["read_bugs", "Read bugs"],
  ["claim_issue", "Claim issues"],
  ["subscribe", "Listen for handoffs"],
  ["get_repro_context", "Repro context"],
  ["create_bug", "Create bugs, upload evidence"],
  ["request_evidence", "Request evidence"],
  ["submit_verification", "Submit verification"],
  ["read_verification", "Read verification"],
  ["publish_symbols", "Publish symbols"],
  ["suggest_fix", "Suggest fixes"],
];
const DAY = 24 * 60 * 60 * 1000;

// "YYYY-MM-DD" of a time (UTC).
const ymd = (t) => new Date(t).toISOString().slice(0, 10);
// The end of a chosen day (UTC) as the token's expiry.
const endOfDay = (d) => `${d}T23:59:59.000Z`;

function state(p) {
  if (p.revokedAt) return "revoked";
  if (Date.parse(p.expiresAt) <= Date.now()) return "expired";
  return "active";
}

function scopeBoxes(prefix, checked) {
  return h(
    "fieldset",
    { class: "checks", id: `${prefix}-scopes` },
    h("legend", {}, "Scopes"),
    ...AGENT_SCOPES.map(([name, label]) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", name: `scope:${name}`, value: name, checked: checked.includes(name) }), ` ${label} `, h("code", {}, name)),
    ),
  );
}

function grantBoxes(prefix, projects, checked) {
  return h(
    "fieldset",
    { class: "checks", id: `${prefix}-grants` },
    h("legend", {}, "Project grants"),
    projects.length
      ? projects.map((p) => h("label", { class: "check" }, h("input", { type: "checkbox", name: `project:${p.id}`, value: p.id, checked: checked.includes(p.id) }), ` ${p.name}`))
      : empty("No projects yet."),
  );
}

// The checked values of the boxes named `kind:...` in a form's entries.
const checkedOf = (v, kind) =>
  Object.keys(v)
    .filter((k) => k.startsWith(`${kind}:`))
    .map((k) => k.slice(kind.length + 1));

export async function tokens(created) {
  const [{ agentPats }, { projects }] = await Promise.all([api("/v1/org/agent-pats"), api("/v1/projects")]);
  const projectName = Object.fromEntries(projects.map((p) => [p.id, p.name]));
  const today = ymd(Date.now());
  const latest = ymd(Date.now() + 364 * DAY);

  const secret = created
    ? h(
        "div",
        { class: "card flash", id: "agent-token-secret", role: "status" },
        h("p", {}, h("strong", {}, `Token “${created.agentPat.name || created.agentPat.prefix}” created.`), " Copy it now: it is shown only once."),
        h("p", {}, h("code", { id: "agent-token-value" }, created.token), " ", copyButton(created.token)),
      )
    : null;

  const editor = (p) => {
    const row = h("tr", { class: "agent-token-edit", "data-edit": p.id });
    const grants = p.projectGrants.map((g) => g.projectId);
    const form = actionForm(
      { class: "block", id: `edit-${p.id}` },
      [
        input("name", "Name", "text", { value: p.name, maxlength: 100 }),
        scopeBoxes(`edit-${p.id}`, p.scopes),
        input("expires", "Expires on", "date", { value: ymd(Date.parse(p.expiresAt)), min: today, max: latest, required: true }),
        grantBoxes(`edit-${p.id}`, projects, grants),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Save"), h("button", { type: "button", class: "secondary", onclick: () => row.remove() }, "Cancel")),
      ],
      async (v) => {
        const body = { expectedRevision: p.accessRevision, name: (v.name || "").trim(), scopes: checkedOf(v, "scope") };
        if (v.expires !== ymd(Date.parse(p.expiresAt))) body.expiresAt = endOfDay(v.expires);
        const chosen = checkedOf(v, "project");
        if (chosen.length !== grants.length || chosen.some((id) => !grants.includes(id))) body.projectGrants = chosen.map((projectId) => ({ projectId }));
        try {
          await api(`/v1/org/agent-pats/${encodeURIComponent(p.id)}`, { method: "PATCH", body });
        } catch (e) {
          if (e instanceof ApiError && e.status === 409 && e.body && e.body.code === "AGENT_ACCESS_CHANGED") {
            throw new ApiError(409, { error: "This token was changed elsewhere since the page loaded: reload the page and edit it again." });
          }
          throw e;
        }
        await tokens();
      },
    );
    row.append(h("td", { colspan: 7 }, form));
    return row;
  };

  const err = h("p", { class: "error", role: "alert", id: "agent-tokens-error" });
  const rows = agentPats.map((p) => {
    const st = state(p);
    const tr = h(
      "tr",
      { "data-id": p.id, "data-state": st },
      h("td", {}, h("strong", {}, p.name || "(unnamed)"), h("div", { class: "muted" }, h("code", {}, `${p.prefix}…`))),
      h("td", { class: "agent-scopes" }, p.scopes.join(", ")),
      h("td", { class: "agent-grants" }, p.projectGrants.length ? p.projectGrants.map((g) => projectName[g.projectId] || g.projectId).join(", ") : h("span", { class: "muted" }, "none")),
      h("td", {}, ymd(Date.parse(p.expiresAt))),
      h("td", { class: "hide-narrow" }, relTime(p.lastUsedAt)),
      h("td", { class: "agent-state" }, st),
      h(
        "td",
        {},
        st === "active"
          ? h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "secondary",
                  "aria-label": `Edit ${p.name || p.prefix}`,
                  onclick: () => {
                    if (!tr.nextElementSibling || !tr.nextElementSibling.matches(".agent-token-edit")) tr.after(editor(p));
                  },
                },
                "Edit",
              ),
              h(
                "button",
                {
                  type: "button",
                  class: "danger",
                  "aria-label": `Revoke ${p.name || p.prefix}`,
                  onclick: async () => {
                    err.textContent = "";
                    try {
                      await api(`/v1/org/agent-pats/${encodeURIComponent(p.id)}`, { method: "DELETE" });
                      await tokens();
                    } catch (e) {
                      err.textContent = errorText(e);
                    }
                  },
                },
                "Revoke",
              ),
            )
          : null,
      ),
    );
    return tr;
  });

  const form = actionForm(
    { class: "card block", id: "agent-token-form" },
    [
      h("h2", {}, "New agent token"),
      input("name", "Name", "text", { maxlength: 100, placeholder: "e.g. CI agent", autocomplete: "off" }),
      scopeBoxes("new", ["read_bugs"]),
      input("expires", "Expires on", "date", { value: ymd(Date.now() + 30 * DAY), min: today, max: latest, required: true }),
      grantBoxes("new", projects, []),
      h("button", { type: "submit" }, "Create token"),
    ],
    async (v) => {
      if (!v.expires) throw new ApiError(400, { error: "Choose an expiry date." });
      const body = {
        name: (v.name || "").trim(),
        scopes: checkedOf(v, "scope"),
        expiresAt: endOfDay(v.expires),
        projectGrants: checkedOf(v, "project").map((projectId) => ({ projectId })),
      };
      if (!body.scopes.length) throw new ApiError(400, { error: "Choose at least one scope." });
      const made = await api("/v1/org/agent-pats", { method: "POST", body });
      await tokens(made);
    },
  );

  show(
    h("h1", {}, "Agent tokens"),
    h("p", { class: "muted" }, "Tokens let coding agents read bugs of the projects you grant and claim work, acting for the person who made them. Send one as ", h("code", {}, "Authorization: Bearer sv_pat_…"), "."),
    secret,
    err,
    agentPats.length
      ? table({ id: "agent-tokens" }, ["Token", "Scopes", "Projects", "Expires", ["Last used", "hide-narrow"], "State", ""], rows)
      : empty("No agent tokens yet."),
    form,
  );
}
