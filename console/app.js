// The web console: a single-page client of the public HTTP API (/v1/...).
// No framework and no dependency: the browser's DOM, fetch and history.
// This module routes between the pages (account.js, bugs.js, settings.js)
// and keeps the header (organization switch, unread notifications).
import * as account from "./account.js";
import * as agents from "./agents.js";
import * as applications from "./applications.js";
import * as bugs from "./bugs.js";
import * as billing from "./billing.js";
import { ApiError, LeftPage, api, currentPage, errorBox, go, h, leave, main, onSupportChange, session, setRenderer, show, support } from "./core.js";
import * as operator from "./operator.js";
import * as settings from "./settings.js";
import * as tickets from "./tickets.js";
import * as verification from "./verification.js";

const nav = document.getElementById("nav");
const orgPicker = document.getElementById("org");
const unread = document.getElementById("unread");
const operatorLink = document.getElementById("nav-operator");
const banner = document.getElementById("support-banner");
const billingLink = document.getElementById("nav-billing");
const agentTokensLink = document.getElementById("nav-agent-tokens");
const verificationLink = document.getElementById("nav-verification");
const applicationsLink = document.getElementById("nav-applications");

document.addEventListener("click", (e) => {
  const a = e.target.closest("a");
  if (!a || a.target || a.hasAttribute("download") || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/v1/")) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener("popstate", render);
// "/" jumps to the page's search field, as in most consoles.
document.addEventListener("keydown", (e) => {
  if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) return;
  const field = main.querySelector("input[type=search]");
  if (!field) return;
  e.preventDefault();
  field.focus();
});
document.getElementById("signout").addEventListener("click", () => {
  session.clear();
  go("/signin");
});
orgPicker.addEventListener("change", async () => {
  await account.switchOrg(orgPicker.value);
  go("/bugs");
});

// [pattern, view, needs a session]
const routes = [
  [/^\/signin$/, account.signIn, false],
  [/^\/register$/, account.register, false],
  [/^\/forgot-password$/, account.forgotPassword, false],
  [/^\/reset-password$/, account.resetPassword, false],
  [/^\/verify-email$/, account.verifyEmail, false],
  [/^\/waitlist$/, account.waitlist, false],
  [/^\/signup$/, account.completeSignup, false],
  [/^\/invite$/, account.acceptInvite, false],
  [/^\/delete-account$/, account.confirmDeletion, false],
  [/^\/welcome$/, account.welcome, true],
  [/^\/account$/, account.account, true],
  [/^\/(bugs)?$/, bugs.bugList, true],
  [/^\/bugs\/([^/]+)$/, bugs.bugPage, true],
  [/^\/groups$/, bugs.groups, true],
  [/^\/groups\/([^/]+)\/([^/]+)$/, bugs.groupInstances, true],
  [/^\/recommended$/, bugs.recommended, true],
  [/^\/live$/, bugs.live, true],
  [/^\/stats$/, bugs.stats, true],
  [/^\/end-users$/, bugs.endUsers, true],
  [/^\/end-users\/([^/]+)$/, bugs.endUserTimeline, true],
  [/^\/reporters\/([^/]+)$/, bugs.reporter, true],
  [/^\/projects$/, settings.projects, true],
  [/^\/projects\/([^/]+)$/, settings.projectPage, true],
  [/^\/team$/, settings.team, true],
  [/^\/notifications$/, settings.notifications, true],
  [/^\/integrations$/, settings.integrations, true],
  [/^\/integrations\/([^/]+)\/deliveries$/, settings.deliveries, true],
  [/^\/alerts$/, settings.alerts, true],
  [/^\/tickets$/, tickets.board, true],
  [/^\/agent-tokens$/, agents.tokens, true],
  [/^\/verification$/, verification.enrollment, true],
  [/^\/applications$/, applications.applications, true],
  [/^\/portfolio$/, tickets.portfolio, true],
  [/^\/operator$/, operator.overview, true],
  [/^\/operator\/customers$/, operator.customers, true],
  [/^\/operator\/customers\/([^/]+)$/, operator.customer, true],
  [/^\/operator\/waitlist$/, operator.waitlist, true],
  [/^\/(settings\/)?billing$/, billing.billing, true],
];

// The support session banner: on every page while one lasts (red, with the
// organization, the mode, the end time and "End"); its end (the time, the
// End control or the server) returns the console to the operator's own
// organization.
function showBanner() {
  const s = session.get() && support.get();
  if (!s) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const ends = new Date(s.expiresAt);
  const hhmm = `${String(ends.getHours()).padStart(2, "0")}:${String(ends.getMinutes()).padStart(2, "0")}`;
  banner.replaceChildren(
    h("span", { id: "support-text" }, `Support session in ${s.orgName} as ${s.mode}, ends ${hhmm}`),
    h("button", { type: "button", id: "support-end", onclick: () => operator.endSupport() }, "End"),
  );
  banner.hidden = false;
}
onSupportChange(() => {
  const was = !banner.hidden;
  showBanner();
  if (was && banner.hidden) go("/operator", true);
});
// Expiry needs no request to be noticed.
setInterval(() => support.get(), 15000);

// The header: the organizations of the account and the unread count.
let headerFor = null;
async function header() {
  const s = session.get();
  if (!s) return;
  if (headerFor !== s.accessToken) {
    headerFor = s.accessToken;
    const me = await api("/v1/auth/me");
    if (!s.user || !s.user.id) session.set({ ...session.get(), user: { id: me.id, email: me.email, name: me.name } });
    orgPicker.replaceChildren(...me.orgs.map((o) => h("option", { value: o.orgId, selected: o.orgId === s.orgId }, o.orgName)));
    orgPicker.parentElement.hidden = me.orgs.length < 2;
    operatorLink.hidden = !me.isSuperAdmin;
    const here = me.orgs.find((o) => o.orgId === s.orgId);
    billingLink.hidden = !(here && here.role === "admin");
    agentTokensLink.hidden = !(here && (here.role === "admin" || here.role === "manager"));
    verificationLink.hidden = !(here && here.role === "admin");
    applicationsLink.hidden = agentTokensLink.hidden;
  }
  // Under a support session the operator's own notifications stay out of it.
  if (support.get()) {
    unread.hidden = true;
    return;
  }
  const n = await settings.unreadCount();
  unread.textContent = n ? String(n) : "";
  unread.hidden = !n;
  unread.setAttribute("aria-label", `${n} unread`);
}

async function render() {
  leave();
  const path = location.pathname;
  const signedIn = !!session.get();
  nav.hidden = !signedIn;
  showBanner();
  for (const a of nav.querySelectorAll("a")) a.toggleAttribute("aria-current", path.startsWith(a.getAttribute("href")));
  for (const [re, view, needsSession] of routes) {
    const m = path.match(re);
    if (!m) continue;
    if (needsSession && !signedIn) return go(`/signin?next=${encodeURIComponent(path + location.search)}`, true);
    main.setAttribute("aria-busy", "true");
    const shown = currentPage();
    try {
      if (needsSession) header().catch(() => {});
      await view(...m.slice(1).map(decodeURIComponent));
    } catch (e) {
      if (e instanceof LeftPage || shown !== currentPage()) return;
      if (!(e instanceof ApiError && e.status === 401)) show(e instanceof ApiError && e.status === 404 ? h("h1", {}, "Not found") : errorBox(e));
    }
    if (shown !== currentPage()) return; // another page is on its way
    main.removeAttribute("aria-busy");
    main.focus({ preventScroll: true });
    return;
  }
  show(h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/bugs" }, "Back to the bugs")));
}
setRenderer(render);
setInterval(() => session.get() && header().catch(() => {}), 60000);
render();
