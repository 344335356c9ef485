// Scrubbing settings (issue 31 items 3-4; README "Scrubbing"): the project
// page's card. GET /v1/projects/:id/scrubbing for every role (counts per
// rule, never values); admins and managers change the project's extra keys,
// IP address storage and message scrubbing (PUT, the same path); the
// server refuses anyone else (403, shown beside Save).
import { api, enc, errorText, h, relTime, table } from "./core.js";

const RULES = [
  ["key", "Values under sensitive keys"],
  ["pair", "name=value and \"name\": value in text"],
  ["card", "Card numbers (Luhn)"],
  ["bearer", "Bearer credentials"],
  ["token", "Known token formats"],
  ["ip", "IP addresses (storage off)"],
];

function iso(ms) {
  return ms ? new Date(ms).toISOString() : null;
}

function render(box, path, s) {
  const keys = h("textarea", { name: "extraKeys", id: "scrub-extra-keys", rows: 3, placeholder: "one key per line, e.g. iban" }, s.extraKeys.join("\n"));
  const messages = h("input", { type: "checkbox", name: "scrubMessages", id: "scrub-messages", checked: s.scrubMessages });
  const ip = h("input", { type: "checkbox", name: "storeIpAddress", id: "scrub-store-ip", checked: s.storeIpAddress });
  const out = h("span", { role: "status", class: "muted", id: "scrubbing-status" });
  const save = h("button", { type: "button", id: "save-scrubbing" }, "Save");
  save.addEventListener("click", async () => {
    out.textContent = "Saving…";
    const extraKeys = keys.value
      .split("\n")
      .map((k) => k.trim())
      .filter((k) => k);
    try {
      const r = await api(path, { method: "PUT", body: { extraKeys, scrubMessages: messages.checked, storeIpAddress: ip.checked } });
      render(box, path, r);
      box.querySelector("#scrubbing-status").textContent = "Saved";
    } catch (e) {
      out.textContent = errorText(e);
    }
  });
  const rows = RULES.map(([rule, label]) => h("tr", { "data-rule": rule }, h("td", {}, label), h("td", { class: "num" }, String(s.counts[rule] || 0))));
  box.replaceChildren(
    h("h2", {}, "Scrubbing"),
    h(
      "p",
      { class: "muted" },
      `Before a report is stored, values under keys containing ${s.defaultKeys.join(", ")} (or named ${s.exactKeys.join(", ")}), card numbers, bearer credentials and known token formats are replaced by ${s.marker}.`,
    ),
    h("label", {}, "Extra keys (matched anywhere in a key, case and _ - . ignored)", keys),
    h("div", { class: "row" }, h("label", { class: "row" }, messages, "Scrub messages (titles, descriptions, message text)"), h("label", { class: "row" }, ip, "Store IP addresses (as a keyed hash)")),
    h("div", { class: "row" }, save, out, h("span", { class: "muted" }, "Admins and managers change these settings.")),
    h("h3", {}, "Scrubbed so far"),
    table({ id: "scrub-counts" }, ["Rule", "Values"], rows),
    h("p", { class: "muted" }, `${s.total} values scrubbed`, ...(s.lastScrubbedAt ? [" · counted up to ", relTime(iso(s.lastScrubbedAt))] : []), " · counts from other server processes arrive within seconds"),
  );
}

// The project page's card.
export function scrubbingSection(projectId) {
  const path = `/v1/projects/${enc(projectId)}/scrubbing`;
  const box = h("section", { class: "card block", id: "scrubbing" }, h("h2", {}, "Scrubbing"), h("p", { class: "muted" }, "Loading…"));
  api(path).then(
    (s) => render(box, path, s),
    (e) => box.replaceChildren(h("h2", {}, "Scrubbing"), h("p", { class: "error" }, errorText(e))),
  );
  return box;
}
