// Alert email digests (issue 32 item 5; README "Alert email batches"): the
// project page's card with the signed-in member's own digest emails that
// carried events of this project (GET /v1/alerts/digests, 50 a page, "Show
// more" passes nextCursor back unchanged), their provider state, and the
// recipient's decisions: "I got it" (received: a record of the recipient,
// the provider state stays as it is) and "Send again" (retry: the whole
// email, other projects' events included, may arrive twice). A decision is
// one POST .../resolution with a fresh requestId; while a send holds the
// batch (409 DIGEST_BUSY) or when the answer is lost, the same request is
// sent again unchanged, a few times.
import { ApiError, LeftPage, api, enc, errorText, h, relTime, table } from "./core.js";

const STATES = {
  queued: "Waiting to be sent",
  sending: "Sending now",
  succeeded: "Accepted by the mail provider",
  retryable: "Provider busy, will try again",
  permanent_failure: "Refused by the mail provider",
  cancelled: "Not sent (email off or no access)",
  outcome_unknown: "Unknown: the connection was lost after sending",
};
const REASONS = {
  sending: "a send is under way",
  queued: "waiting for a send",
  received: "you confirmed it",
  manual_retry_limit: "sent again 3 times already",
  attempt_limit: "8 attempts made",
  not_sent: "not sent yet",
};

function uuid() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// One decision; the exact request again on DIGEST_BUSY or a lost answer.
async function decide(batch, projectId, action) {
  const body = { projectId, requestId: uuid(), expectedGeneration: batch.generation, action };
  if (action === "retry") body.acceptDuplicateRisk = true;
  for (let i = 0; ; i++) {
    try {
      return await api(`/v1/alerts/digests/${enc(batch.id)}/resolution`, { method: "POST", body });
    } catch (e) {
      if (e instanceof LeftPage) throw e;
      const busy = e instanceof ApiError && e.status === 409 && e.body && e.body.code === "DIGEST_BUSY";
      const lost = !(e instanceof ApiError);
      if (!(busy || lost) || i >= 4) throw e;
      await pause(1000);
    }
  }
}

function decisionText(r) {
  if (!r) return "—";
  return h("span", {}, r.action === "received" ? "You got it" : "Sent again on your request", " (", relTime(r.createdAt), ")");
}

function row(b, projectId, reload, out) {
  const a = b.allowedActions || {};
  const actions = h("td", { class: "actions" });
  const act = async (action, button) => {
    if (action === "retry") {
      const others = b.batchProjectCount > 1 ? ` It also carries events of ${b.batchProjectCount - 1} other project(s).` : "";
      if (!confirm(`Send this digest again? If the first one did arrive, you get it twice.${others}`)) return;
    }
    button.disabled = true;
    out.textContent = "Saving…";
    try {
      await decide(b, projectId, action);
      out.textContent = action === "retry" ? "Queued to be sent again." : "Recorded: you got it.";
      reload();
    } catch (e) {
      if (e instanceof LeftPage) return;
      button.disabled = false;
      out.textContent = errorText(e);
    }
  };
  if (a.received) {
    const got = h("button", { type: "button", class: "secondary digest-received" }, "I got it");
    got.addEventListener("click", () => act("received", got));
    actions.append(got);
  }
  if (a.retry) {
    const again = h("button", { type: "button", class: "secondary digest-retry" }, "Send again");
    again.addEventListener("click", () => act("retry", again));
    actions.append(" ", again);
  }
  if (!a.received && !a.retry) actions.append(h("span", { class: "muted" }, REASONS[a.reason] || a.reason || ""));
  return h(
    "tr",
    { "data-batch": b.id, "data-state": b.state },
    h("td", {}, relTime(b.createdAt)),
    h("td", { class: "num" }, String(b.eventCount), b.batchProjectCount > 1 ? h("small", { class: "muted" }, ` of ${b.batchProjectCount} projects`) : null),
    h("td", { class: "digest-state" }, STATES[b.state] || b.state, b.generation > 0 ? h("small", { class: "muted" }, ` · sent again ${b.generation}×`) : null),
    h("td", { class: "num hide-narrow" }, String(b.attempts)),
    h("td", { class: "digest-resolution" }, decisionText(b.resolution)),
    actions,
  );
}

function render(box, projectId) {
  const body = h("tbody");
  const pending = h("p", { class: "muted", id: "digest-pending" });
  const out = h("p", { role: "status", class: "muted", id: "digest-status" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  let cursor = null;
  const load = async (append) => {
    const q = `/v1/alerts/digests?projectId=${enc(projectId)}${append && cursor ? `&after=${enc(cursor)}` : ""}`;
    try {
      const r = await api(q);
      if (!append) body.replaceChildren();
      for (const b of r.batches) body.append(row(b, projectId, () => load(false), out));
      if (!body.children.length) body.append(h("tr", { class: "empty-row" }, h("td", { colspan: 6, class: "muted" }, "No digest email with this project's events yet.")));
      pending.textContent = r.pendingEvents ? `${r.pendingEvents} event(s) of this project wait for your next digest.` : "";
      cursor = r.nextCursor;
      more.hidden = !cursor;
    } catch (e) {
      if (!(e instanceof LeftPage)) out.textContent = errorText(e);
    } finally {
      box.setAttribute("data-loaded", "true");
    }
  };
  more.addEventListener("click", () => load(true));
  box.replaceChildren(
    h("h2", {}, "Your digest emails"),
    h(
      "p",
      { class: "muted" },
      "The hourly or daily digest emails sent to you with events of this project (your notification preferences choose digests). “Accepted” means the mail provider took it, not that it reached your inbox: tell us if you got it, or have it sent again.",
    ),
    pending,
    table({ id: "digest-batches" }, ["Created", "Events", "State", ["Attempts", "hide-narrow"], "Your answer", ""], body),
    more,
    out,
  );
  load(false);
}

// The project page's card.
export function digestsSection(projectId) {
  const box = h("section", { class: "card block", id: "digests" }, h("h2", {}, "Your digest emails"), h("p", { class: "muted" }, "Loading…"));
  render(box, projectId);
  return box;
}
