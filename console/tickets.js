// The ticket board and the portfolio (issue 28 item 4).
//   /tickets    five columns (GET /v1/tickets); each card moves with buttons,
//               no dragging: left/right change its status, up/down its
//               position (POST /v1/tickets/:id/move); a form adds a ticket
//               (POST /v1/tickets) at the end of Backlog.
//   /portfolio  every organization of the account with its bug figures and
//               the totals (GET /v1/portfolio/overview).
import { actionForm, api, empty, errorText, h, input, relTime, show, table } from "./core.js";

export const TICKET_STATUSES = ["backlog", "todo", "in_progress", "review", "done"];
const LABELS = { backlog: "Backlog", todo: "To do", in_progress: "In progress", review: "Review", done: "Done" };

// One card; `col` is its column's index, `n` how many cards the column holds.
function card(t, col, n, moveTo, remove) {
  const control = (label, text, enabled, status, position) =>
    h("button", { type: "button", class: "secondary move", "aria-label": `${label}: ${t.title}`, title: label, disabled: !enabled, "data-move": text, onclick: () => moveTo(t, status, position) }, text);
  return h(
    "li",
    { class: "card ticket", "data-id": t.id, "data-status": t.status, "data-position": String(t.position) },
    h("p", { class: "ticket-title" }, t.title),
    t.description ? h("p", { class: "muted ticket-description" }, t.description) : null,
    t.bugId ? h("p", {}, h("a", { href: `/bugs/${encodeURIComponent(t.bugId)}` }, "Linked bug")) : null,
    h(
      "div",
      { class: "row ticket-controls" },
      control("Move left", "←", col > 0, TICKET_STATUSES[col - 1], t.position),
      control("Move up", "↑", t.position > 0, t.status, t.position - 1),
      control("Move down", "↓", t.position < n - 1, t.status, t.position + 1),
      control("Move right", "→", col < TICKET_STATUSES.length - 1, TICKET_STATUSES[col + 1], t.position),
      h("button", { type: "button", class: "link", "aria-label": `Delete: ${t.title}`, onclick: () => remove(t) }, "Delete"),
    ),
  );
}

export async function board() {
  const { tickets } = await api("/v1/tickets");
  const err = h("p", { class: "error", role: "alert", id: "board-error" });
  const columns = TICKET_STATUSES.map((s) => tickets.filter((t) => t.status === s));
  const moveTo = async (t, status, position) => {
    err.textContent = "";
    try {
      await api(`/v1/tickets/${encodeURIComponent(t.id)}/move`, { method: "POST", body: { status, position } });
      await board();
    } catch (e) {
      err.textContent = errorText(e);
    }
  };
  const remove = async (t) => {
    err.textContent = "";
    try {
      await api(`/v1/tickets/${encodeURIComponent(t.id)}`, { method: "DELETE" });
      await board();
    } catch (e) {
      err.textContent = errorText(e);
    }
  };
  const add = actionForm(
    { class: "card block ticket-form", id: "ticket-form" },
    [
      h("h2", {}, "Add a ticket"),
      input("title", "Title", "text", { required: true, maxlength: 500 }),
      h("label", {}, "Description", h("textarea", { name: "description", rows: 2, maxlength: 10000 })),
      input("bugId", "Bug id (optional)", "text", { placeholder: "a bug's id", autocomplete: "off" }),
      h("button", { type: "submit" }, "Add ticket"),
    ],
    async (v) => {
      const body = { title: v.title.trim(), description: v.description || "" };
      if (v.bugId && v.bugId.trim()) body.bugId = v.bugId.trim();
      await api("/v1/tickets", { method: "POST", body });
      await board();
      const title = document.querySelector('#ticket-form input[name="title"]');
      if (title) title.focus();
    },
  );
  show(
    h("h1", {}, "Tickets"),
    h("p", { class: "muted" }, `${tickets.length} ${tickets.length === 1 ? "ticket" : "tickets"} on the board.`),
    err,
    h(
      "div",
      { class: "board", id: "board" },
      ...TICKET_STATUSES.map((s, col) =>
        h(
          "section",
          { class: "board-column", "data-status": s, "aria-label": LABELS[s] },
          h("h2", {}, LABELS[s], " ", h("span", { class: "muted column-count" }, `(${columns[col].length})`)),
          columns[col].length
            ? h("ol", { class: "tickets" }, ...columns[col].map((t) => card(t, col, columns[col].length, moveTo, remove)))
            : empty("Nothing here."),
        ),
      ),
    ),
    add,
  );
}

export async function portfolio() {
  const p = await api("/v1/portfolio/overview");
  const rows = p.organizations.map((o) =>
    h(
      "tr",
      { "data-org": o.orgId },
      h("td", {}, h("strong", {}, o.name), h("div", { class: "muted" }, o.slug)),
      h("td", {}, o.role),
      h("td", { class: "hide-narrow" }, o.plan),
      h("td", { class: "num" }, String(o.projects)),
      h("td", { class: "num" }, String(o.openBugs)),
      h("td", { class: "num" }, String(o.criticalOpen)),
      h("td", { class: "num hide-narrow" }, String(o.newBugs7d)),
      h("td", { class: "hide-narrow" }, relTime(o.lastBugSeen)),
    ),
  );
  const t = p.totals;
  const totals = h(
    "tr",
    { id: "portfolio-totals" },
    h("th", { scope: "row" }, `${t.organizations} ${t.organizations === 1 ? "organization" : "organizations"}`),
    h("td", {}),
    h("td", { class: "hide-narrow" }),
    h("td", { class: "num" }, String(t.projects)),
    h("td", { class: "num" }, String(t.openBugs)),
    h("td", { class: "num" }, String(t.criticalOpen)),
    h("td", { class: "hide-narrow" }),
    h("td", { class: "hide-narrow" }),
  );
  const body = h("tbody", {}, ...rows);
  const tbl = table({ id: "portfolio" }, ["Organization", "Role", ["Plan", "hide-narrow"], "Projects", "Open bugs", "Critical open", ["New (7 days)", "hide-narrow"], ["Last bug seen", "hide-narrow"]], body);
  tbl.append(h("tfoot", {}, totals));
  show(h("h1", {}, "Portfolio"), h("p", { class: "muted" }, "Every organization you belong to."), p.organizations.length ? tbl : empty("You belong to no organization."));
}
