// The agent handoff in the console (Spec 2 "Agent handoff"): on a bug's page
// the "Hand to an agent" button with the agent state, the channel rows of the
// latest handoff and the history (POST /v1/bugs/:id/notify-agent, GET
// /v1/bugs/:id/agent-status); on a project's page its agent settings (GET/PUT
// /v1/projects/:id/agent-settings: auto-notify and its minimum severity).
import { SEVERITIES, api, empty, enc, errorText, h, options, relTime } from "./core.js";

const STATE_LABELS = {
  none: "Not handed to an agent",
  no_channel: "No agent channel",
  notified: "Agent notified",
  working: "An agent is working on it",
  pr_opened: "Pull request opened",
};

function rowItem(r) {
  const where = r.channel ? `${r.channel}${r.channelName ? ` · ${r.channelName}` : ""}` : "no channel";
  return h(
    "li",
    { class: "handoff-row", "data-channel": r.channel || "", "data-status": r.status },
    h("strong", {}, where),
    " ",
    h("span", { class: `badge handoff-${r.status}` }, r.status.replace("_", " ")),
    r.detail ? h("small", { class: "muted" }, ` ${r.detail}`) : null,
  );
}

function historyItem(e) {
  const what =
    e.action === "notified"
      ? `Handed over (${e.trigger})${e.channels && e.channels.length ? `: ${e.channels.join(", ")}` : ""}`
      : e.action === "no_channel"
        ? `Handoff found no channel (${e.trigger})`
        : e.action === "working"
          ? `Picked up${e.note ? `: ${e.note}` : ""}`
          : "Pull request opened";
  return h(
    "li",
    {},
    what,
    e.prUrl ? [" ", h("a", { href: e.prUrl, rel: "noopener noreferrer", target: "_blank" }, e.prUrl)] : null,
    " ",
    h("small", { class: "muted" }, e.by || "", " ", relTime(e.at)),
  );
}

// Replaces `box`'s content, leaving out absent parts (replaceChildren would
// print null).
function fill(box, ...children) {
  box.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

// The agent section of a bug's page (fills itself in; re-renders after a handoff).
export function agentSection(bugId) {
  const base = `/v1/bugs/${enc(bugId)}`;
  const box = h("section", { id: "agent-handoff", class: "card" }, h("h2", {}, "Agent"), h("p", { class: "muted" }, "Loading…"));
  const msg = h("p", { role: "status", id: "agent-message" });
  function render(st, rows = st.notified ? st.notified.channels : []) {
    const hand = h("button", { type: "button", id: "hand-to-agent" }, "Hand to an agent");
    hand.addEventListener("click", async () => {
      hand.disabled = true;
      msg.textContent = "Handing over…";
      try {
        const r = await api(`${base}/notify-agent`, { method: "POST", body: {} });
        msg.textContent = r.noChannel
          ? "No agent channel is set up for this project."
          : r.reused
            ? "Already handed over a moment ago."
            : `Handed to ${r.notifications.length} channel${r.notifications.length === 1 ? "" : "s"}.`;
        render(await api(`${base}/agent-status`), r.notifications);
      } catch (e) {
        msg.textContent = errorText(e);
        hand.disabled = false;
      }
    });
    fill(
      box,
      h("h2", {}, "Agent"),
      h("p", {}, h("strong", { id: "agent-state", "data-state": st.state }, STATE_LABELS[st.state] || st.state)),
      st.pickedUp ? h("p", { class: "muted" }, "Picked up by ", st.pickedUp.by || "an agent", " ", relTime(st.pickedUp.at)) : null,
      st.prOpened ? h("p", {}, "Pull request: ", h("a", { href: st.prOpened.url, rel: "noopener noreferrer", target: "_blank" }, st.prOpened.url)) : null,
      st.canConnect ? null : h("p", { class: "muted" }, "This project has no agent channel yet: add an agent integration, a code host, or an agent token with the subscribe scope."),
      h("div", { class: "row" }, hand),
      msg,
      rows && rows.length ? h("ul", { class: "plain", id: "agent-channels" }, ...rows.map(rowItem)) : null,
      h("h3", {}, "Agent history"),
      st.history.length ? h("ul", { class: "plain", id: "agent-history" }, ...st.history.map(historyItem)) : empty("Nothing yet."),
    );
  }
  api(`${base}/agent-status`).then(
    (st) => render(st),
    (e) => box.replaceChildren(h("h2", {}, "Agent"), h("p", { class: "error" }, errorText(e))),
  );
  return box;
}

// A project's agent settings (a section of its page).
export function agentSettingsSection(projectId) {
  const path = `/v1/projects/${enc(projectId)}/agent-settings`;
  const box = h("section", { class: "card block", id: "agent-settings" }, h("h2", {}, "Agent settings"), h("p", { class: "muted" }, "Loading…"));
  api(path).then(
    ({ settings }) => {
      const auto = h("input", { type: "checkbox", name: "autoNotify", id: "auto-notify", checked: settings.autoNotify });
      const min = h("select", { name: "minSeverity", id: "auto-notify-min" }, ...options(SEVERITIES, settings.minSeverity));
      const out = h("span", { role: "status", class: "muted", id: "agent-settings-status" });
      const save = h("button", { type: "button", id: "save-agent-settings" }, "Save");
      save.addEventListener("click", async () => {
        out.textContent = "Saving…";
        try {
          const r = await api(path, { method: "PUT", body: { autoNotify: auto.checked, minSeverity: min.value } });
          auto.checked = r.settings.autoNotify;
          out.textContent = "Saved";
        } catch (e) {
          out.textContent = errorText(e);
        }
      });
      box.replaceChildren(
        h("h2", {}, "Agent settings"),
        h("p", { class: "muted" }, "With auto-notify on, every new bug or regression at or above the severity below is handed to this project's agent channels."),
        h("div", { class: "row" }, h("label", { class: "row" }, auto, "Auto-notify agents"), h("label", { class: "row" }, "Minimum severity", min), save, out),
      );
    },
    (e) => box.replaceChildren(h("h2", {}, "Agent settings"), h("p", { class: "error" }, errorText(e))),
  );
  return box;
}
