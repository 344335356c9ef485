// Evidence on a bug's page (Spec 2 "Evidence"): the files (logs, replays)
// attached to the bug's most recent occurrences, each with its kind, size
// and age and a download (GET /v1/evidence/capabilities, then GET
// /v1/evidence/projects/:projectId/occurrences/:occurrenceId/artifacts per
// occurrence, GET .../artifacts/:artifactId/content for the bytes). A
// download is fetched with the session's bearer (the console keeps no
// cookie) and saved under the name the server gives.
import { LeftPage, api, enc, errorText, h, relTime, send, session, support } from "./core.js";

// The occurrences whose evidence the page reads (one call each).
const OCCURRENCES = 5;

function size(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

function fill(box, ...children) {
  box.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

// The artifact's bytes as a file download.
async function download(artifact, button, msg) {
  const s = session.get();
  const headers = {};
  if (s) {
    headers.Authorization = `Bearer ${s.accessToken}`;
    const sup = support.get();
    if (sup) {
      headers["X-Service-Org"] = sup.orgId;
      headers["X-Service-Support-Session"] = sup.id;
    } else if (s.orgId) headers["X-Service-Org"] = s.orgId;
  }
  button.disabled = true;
  msg.textContent = "";
  try {
    const r = await send(`/v1/evidence/projects/${enc(artifact.projectId)}/artifacts/${enc(artifact.id)}/content`, { headers });
    if (!r.ok) {
      let text = `HTTP ${r.status}`;
      try {
        text = (await r.json()).error || text;
      } catch {}
      msg.textContent = `Download failed: ${text}`;
      return;
    }
    const blob = await r.blob();
    const name = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: name ? name[1] : `${artifact.id}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch {
    msg.textContent = "Download failed: could not reach the server.";
  } finally {
    button.disabled = false;
  }
}

function artifactItem(a) {
  const msg = h("small", { class: "error", role: "status" });
  const button = h("button", { type: "button", class: "secondary evidence-download", "data-artifact": a.id }, "Download");
  button.addEventListener("click", () => download(a, button, msg));
  return h(
    "li",
    { class: "evidence-item", "data-artifact": a.id, "data-kind": a.kind },
    h("strong", {}, a.kind),
    " ",
    h("small", { class: "muted" }, `${a.contentType} · ${size(a.byteCount)} · `, relTime(a.createdAt)),
    " ",
    button,
    " ",
    msg,
  );
}

// The evidence card of a bug's page; fills itself in.
export function evidenceSection(occurrences) {
  const box = h("section", { id: "evidence", class: "card" }, h("h2", {}, "Evidence"), h("p", { class: "muted" }, "Loading…"));
  load(box, (occurrences || []).slice(0, OCCURRENCES));
  return box;
}

async function load(box, occurrences) {
  const title = h("h2", {}, "Evidence");
  try {
    const caps = await api("/v1/evidence/capabilities");
    if (!caps.configured) {
      fill(box, title, h("p", { class: "muted", id: "evidence-unavailable" }, "Evidence storage is not configured on this server."));
      return;
    }
    const lists = await Promise.all(
      occurrences.map((o) =>
        api(`/v1/evidence/projects/${enc(o.project_id)}/occurrences/${enc(o.id)}/artifacts?limit=100`)
          .then((r) => ({ o, artifacts: r.artifacts, total: r.total }))
          .catch((e) => ({ o, error: e })),
      ),
    );
    const withEvidence = lists.filter((l) => l.error || l.total > 0);
    if (!withEvidence.length) {
      fill(box, title, h("p", { class: "muted empty", id: "evidence-none" }, "No evidence attached to the recent occurrences."));
      return;
    }
    fill(
      box,
      title,
      ...withEvidence.map((l) =>
        h(
          "div",
          { class: "evidence-occurrence", "data-occurrence": l.o.id },
          h("p", {}, "Occurrence ", relTime(l.o.occurred_at), l.total > l.artifacts?.length ? h("small", { class: "muted" }, ` (${l.artifacts.length} of ${l.total})`) : null),
          l.error ? h("p", { class: "error" }, errorText(l.error)) : h("ul", { class: "plain" }, ...l.artifacts.map(artifactItem)),
        ),
      ),
    );
  } catch (e) {
    if (e instanceof LeftPage) return;
    fill(box, title, h("p", { class: "error" }, errorText(e)));
  }
}
