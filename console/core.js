// The console's shared parts: the session, the API client, the DOM helpers,
// navigation and the event-stream reader. Pages live in their own modules
// (account.js, bugs.js, settings.js) and app.js routes between them.
// Text from the API is always set as text (never parsed as HTML).

export const main = document.getElementById("main");

export const STATUSES = ["new", "known", "working", "resolved", "silenced"];
export const SEVERITIES = ["critical", "high", "medium", "low"];
export const SIGNAL_CLASSES = ["issue", "watch", "diagnostic", "all"];
export const PLATFORMS = ["web", "ios", "android", "react-native", "flutter", "server", "other"];
export const ROLES = ["admin", "manager", "member", "tester", "viewer"];

// ---- session -----------------------------------------------------------------
// Tokens live in sessionStorage (this tab, until it closes). Secrets shown once
// (a capture key, a signing secret) and tokens read from a link's fragment
// live in memory only.
export const session = {
  get() {
    try {
      return JSON.parse(sessionStorage.getItem("service.session") || "null");
    } catch {
      return null;
    }
  },
  set(s) {
    sessionStorage.setItem("service.session", JSON.stringify(s));
  },
  clear() {
    sessionStorage.removeItem("service.session");
  },
};
// A support session (operators only, POST /v1/admin/support/session): while
// it lasts every API call acts in its organization as an admin (the
// X-Service-Org and X-Service-Support-Session headers); app.js shows the
// banner. It ends when its time is up, when the operator ends it, or when
// the server says it ended or expired.
export const support = {
  // Kept in the session, so signing out or in as someone else drops it.
  get() {
    const s = session.get();
    const sup = s && s.support;
    if (sup && !(Date.parse(sup.expiresAt) > Date.now())) {
      support.clear();
      return null;
    }
    return sup || null;
  },
  set(sup) {
    session.set({ ...session.get(), support: sup });
    supportChanged();
  },
  clear() {
    const s = session.get();
    if (!s || !s.support) return;
    delete s.support;
    session.set(s);
    supportChanged();
  },
};
let supportListener = () => {};
// `fn` runs whenever a support session starts or ends (the banner).
export function onSupportChange(fn) {
  supportListener = fn;
}
function supportChanged() {
  supportListener();
}
export function startSession(b) {
  session.set({ accessToken: b.accessToken, refreshToken: b.refreshToken, orgId: b.org && b.org.id, user: b.user });
}

// ---- DOM helpers -------------------------------------------------------------
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
let flashText = null;
// A message for the next page shown (after an action that re-renders).
export function flash(text) {
  flashText = text;
}
export function show(...nodes) {
  const shown = nodes.flat().filter((n) => n !== null && n !== undefined && n !== false);
  if (flashText) shown.unshift(h("p", { class: "card flash", role: "status", id: "flash" }, flashText));
  flashText = null;
  main.replaceChildren(...shown);
}
// A time shown relative ("5 min ago") and exact on hover.
export function relTime(iso) {
  if (!iso) return h("span", { class: "muted" }, "never");
  const t = new Date(iso);
  const s = Math.round((Date.now() - t.getTime()) / 1000);
  const text =
    s < 0 ? "soon" : s < 60 ? "just now" : s < 3600 ? `${Math.floor(s / 60)} min ago` : s < 86400 ? `${Math.floor(s / 3600)} h ago` : `${Math.floor(s / 86400)} d ago`;
  return h("time", { datetime: iso, title: t.toLocaleString() }, text);
}
export function sev(s) {
  return h("span", { class: `sev sev-${s}` }, s || "");
}
export function enc(s) {
  return encodeURIComponent(s);
}
export function options(values, current, labels = {}) {
  return values.map((v) => h("option", { value: v, selected: v === current }, labels[v] || v));
}
// A labelled select; `any` adds an empty first choice.
export function select(name, label, values, current, { any = "Any", labels } = {}) {
  return h("label", {}, label, h("select", { name }, any ? h("option", { value: "" }, any) : null, ...options(values, current || "", labels)));
}
export function copyButton(text, label = "Copy") {
  return h(
    "button",
    {
      type: "button",
      class: "secondary",
      onclick: async (e) => {
        await navigator.clipboard.writeText(text).catch(() => {});
        e.target.textContent = "Copied";
      },
    },
    label,
  );
}
// A table: `columns` are header labels, or [label, class] (such as
// "hide-narrow"; the rows give their own cells the class); `body` is a
// tbody element or the rows.
export function table(attrs, columns, body) {
  const heads = columns.filter((c) => c !== null).map((c) => (Array.isArray(c) ? h("th", { class: c[1] }, c[0]) : h("th", {}, c)));
  return h("table", attrs, h("thead", {}, h("tr", {}, ...heads)), body instanceof Node ? body : h("tbody", {}, ...body));
}
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
export function empty(text) {
  return h("p", { class: "muted empty" }, text);
}

// ---- rate limits -------------------------------------------------------------
// The server limits requests per client address and window (general: 200 per
// 60 s by default) and answers 429 with Retry-After beyond it. The console
// never shows a page a 429: a limited call waits the seconds the server names,
// the banner under the header counts them down ("Too many requests: retrying
// in N s"), and the call is sent again. Calls made while a wait runs join it
// instead of drawing more 429s; the banner goes once a call is answered.
const notice = document.getElementById("notice");
const MAX_WAITS = 5; // consecutive 429s one call sits out before it fails
let resumeAt = 0;
let ticker = null;
function sleep(ms) {
  return new Promise((ok) => setTimeout(ok, ms));
}
function tick() {
  const left = Math.ceil((resumeAt - Date.now()) / 1000);
  notice.textContent = left > 0 ? `Too many requests: retrying in ${left} s` : "Too many requests: retrying now…";
  notice.hidden = false;
}
function waitFor(seconds) {
  resumeAt = Math.max(resumeAt, Date.now() + seconds * 1000);
  tick();
  if (!ticker) ticker = setInterval(tick, 1000);
}
function answered() {
  if (!ticker || Date.now() < resumeAt) return;
  clearInterval(ticker);
  ticker = null;
  notice.hidden = true;
}
// fetch(path, init), sitting out 429s as above. Exported for the rare caller
// that needs the raw response.
export async function send(path, init) {
  for (let waits = 0; ; waits++) {
    while (Date.now() < resumeAt) await sleep(resumeAt - Date.now());
    const r = await fetch(path, init);
    if (r.status !== 429) {
      answered();
      return r;
    }
    if (waits >= MAX_WAITS) {
      clearInterval(ticker);
      ticker = null;
      notice.textContent = "Too many requests: the server still refuses; try again in a minute.";
      return r;
    }
    let seconds = Number(r.headers.get("Retry-After"));
    if (!Number.isFinite(seconds) || seconds <= 0) seconds = 1;
    waitFor(Math.min(seconds, 120));
  }
}

// ---- API ---------------------------------------------------------------------
export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.error || body.message)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}
async function refresh(s) {
  const r = await send("/v1/auth/refresh", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refreshToken: s.refreshToken }),
  });
  if (!r.ok) return false;
  const b = await r.json();
  session.set({ ...s, accessToken: b.accessToken, refreshToken: b.refreshToken || s.refreshToken });
  return true;
}
// Thrown by api() when the page that called it was left while the call ran
// (a slow answer, or a 429 wait): the old page must not draw over the new one.
export class LeftPage extends Error {}
export async function api(path, { method = "GET", body, retried = false } = {}) {
  const view = generation;
  const s = session.get();
  const headers = {};
  const sup = s && support.get();
  if (s) {
    headers.Authorization = `Bearer ${s.accessToken}`;
    if (sup) {
      headers["X-Service-Org"] = sup.orgId;
      headers["X-Service-Support-Session"] = sup.id;
    } else if (s.orgId) headers["X-Service-Org"] = s.orgId;
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status === 401 && s && !retried && (await refresh(s))) return api(path, { method, body, retried: true });
  if (r.status === 401 && s) {
    // The session ended: sign in again and come back here.
    session.clear();
    if (location.pathname !== "/signin") go(`/signin?next=${enc(location.pathname + location.search)}`);
    throw new ApiError(401, { error: "Session expired" });
  }
  const text = await r.text();
  if (view !== generation) throw new LeftPage(path);
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (sup && r.status === 403 && json && /^SUPPORT_SESSION_(EXPIRED|ENDED)$/.test(json.code || "")) support.clear();
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}
export function errorText(e) {
  return e instanceof ApiError ? e.message : "Could not reach the server.";
}
export function errorBox(e) {
  return h("p", { class: "error", role: "alert" }, errorText(e));
}

// ---- navigation --------------------------------------------------------------
let renderer = () => {};
let teardown = [];
let generation = 0; // counts the pages shown; see LeftPage
// The page now shown (compare with a later value: was it left?).
export function currentPage() {
  return generation;
}
export function setRenderer(fn) {
  renderer = fn;
}
// Shows `url`; resolves once its page is rendered.
export function go(url, replace = false) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  return renderer();
}
// Registers what to stop when the page is left (an open stream, a timer).
export function onLeave(fn) {
  teardown.push(fn);
}
export function leave() {
  generation++;
  for (const fn of teardown) fn();
  teardown = [];
}
// Reads a query string into an object of the given keys that are set.
export function pick(params, keys) {
  const out = new URLSearchParams();
  for (const k of keys) if (params.get(k)) out.set(k, params.get(k));
  return out;
}
export function currentQuery() {
  return new URLSearchParams(location.search);
}

// ---- forms -------------------------------------------------------------------
// A form whose submit runs `onSubmit(values, form)`; errors land in its alert
// line, and the submit button is disabled while the request runs.
export function actionForm(attrs, children, onSubmit) {
  const err = h("p", { class: "error", role: "alert" });
  const form = h("form", { novalidate: true, ...attrs }, ...children, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    try {
      await onSubmit(Object.fromEntries(new FormData(form).entries()), form);
    } catch (x) {
      err.textContent = errorText(x);
    } finally {
      if (button) button.disabled = false;
    }
  });
  return form;
}
export function input(name, label, type = "text", extra = {}) {
  return h("label", {}, label, h("input", { name, type, ...extra }));
}
// A card-shaped form for the signed-out pages.
export function authForm(title, fields, submitText, onSubmit, ...footer) {
  const form = actionForm(
    { class: "card auth" },
    [
      h("h1", {}, title),
      ...fields.map(([name, label, type, autocomplete, extra]) => input(name, label, type, { required: true, autocomplete: autocomplete || "on", ...extra })),
      h("button", { type: "submit" }, submitText),
    ],
    onSubmit,
  );
  if (footer.length) form.append(...footer);
  show(form);
  const first = form.querySelector("input:not([readonly])");
  if (first) first.focus();
  return form;
}

// ---- event stream ------------------------------------------------------------
// Reads the server-sent events of /v1/bugs/stream through fetch (EventSource
// cannot send the bearer); reconnects after the server's `retry`, and re-reads
// the page's state on reconnect (`onOpen`), as the stream's rules ask.
// Returns a promise settled once the first connection is answered (or has
// failed): a page reads its state after that, so nothing that happens between
// its first read and the subscription is missed.
export function openStream(onEvent, onOpen) {
  let stopped = false;
  let controller = null;
  let retryMs = 3000;
  let opened = 0;
  let firstAnswer;
  const answered = new Promise((ok) => (firstAnswer = ok));
  async function run() {
    while (!stopped) {
      const s = session.get();
      // Under a support session there is no live stream (it is for members).
      if (!s || support.get()) return firstAnswer();
      controller = new AbortController();
      try {
        const r = await send("/v1/bugs/stream", {
          headers: { Authorization: `Bearer ${s.accessToken}`, "X-Service-Org": s.orgId, Accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (r.status === 401 && !(await refresh(s))) return firstAnswer();
        if (r.ok && r.body) {
          firstAnswer();
          if (opened++ > 0 && onOpen) onOpen();
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              let type = "message";
              let data = "";
              for (const line of block.split("\n")) {
                if (line.startsWith("event:")) type = line.slice(6).trim();
                else if (line.startsWith("data:")) data += line.slice(5).trim();
                else if (line.startsWith("retry:")) retryMs = Number(line.slice(6)) || retryMs;
              }
              if (data) {
                try {
                  onEvent(type, JSON.parse(data));
                } catch {
                  /* not JSON: ignored */
                }
              }
            }
          }
        }
      } catch {
        /* aborted or dropped */
      }
      firstAnswer();
      if (!stopped) await new Promise((ok) => setTimeout(ok, retryMs));
    }
  }
  run();
  onLeave(() => {
    stopped = true;
    if (controller) controller.abort();
    firstAnswer();
  });
  // A slow stream never holds the page back for long.
  return Promise.race([answered, new Promise((ok) => setTimeout(ok, 2000))]);
}
// Calls `fn` at most once per `ms` after a burst of calls (stream events).
export function debounce(fn, ms = 150) {
  let pending = null;
  return () => {
    clearTimeout(pending);
    pending = setTimeout(() => fn().catch(() => {}), ms);
  };
}

// Pages of `total` rows by `limit`/`offset` kept in the URL.
export function pager(total, limit, offset, path) {
  const q = currentQuery();
  const link = (o, text) => {
    q.set("offset", String(o));
    return h("a", { href: `${path}?${q}` }, text);
  };
  if (total <= limit) return null;
  return h(
    "nav",
    { class: "row pager", "aria-label": "Pages" },
    offset > 0 ? link(Math.max(0, offset - limit), "← Newer") : null,
    h("span", { class: "muted" }, `${offset + 1}–${Math.min(total, offset + limit)} of ${total}`),
    offset + limit < total ? link(offset + limit, "Older →") : null,
  );
}

// ---- links from mails --------------------------------------------------------
// A mailed link carries its token in the URL fragment (/invite#token=...): it
// is read once at start, removed from the address bar and the history at once,
// and kept in memory only.
export const linkParams = (() => {
  const p = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return p;
})();

function svgEl(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}
// A bar per item (a day), `value(item)` high, `title(item)` on hover; the
// stats page and the operator overview draw their charts with it.
export function barChart(label, items, value, title, height = 120) {
  const max = Math.max(1, ...items.map(value));
  const svg = svgEl("svg", { viewBox: `0 0 ${Math.max(1, items.length) * 10} 100`, role: "img", "aria-label": label, width: "100%", height, preserveAspectRatio: "none" });
  items.forEach((d, i) => {
    const hgt = (value(d) / max) * 96;
    const r = svgEl("rect", { x: i * 10 + 1, y: 100 - hgt, width: 8, height: hgt });
    const t = svgEl("title", {});
    t.textContent = title(d);
    r.append(t);
    svg.append(r);
  });
  return svg;
}
