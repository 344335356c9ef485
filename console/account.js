// Account pages: sign in and up, mailed links (verify, reset, invitation,
// approved signup, account deletion), the account page (export, deletion).
import { ApiError, actionForm, api, authForm, copyButton, currentQuery, errorText, go, h, linkParams, session, show, startSession } from "./core.js";

let shownKey = null; // {apiKey, projectId} after registering or completing signup: memory only

function nextPath() {
  const next = currentQuery().get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/bugs";
}
function note(text, ...more) {
  return h("div", { class: "card auth" }, h("p", { role: "status" }, text), ...more);
}

export function signIn() {
  const extra = h("div");
  authForm(
    "Sign in",
    [
      ["email", "Email", "email", "username"],
      ["password", "Password", "password", "current-password"],
    ],
    "Sign in",
    async (v) => {
      extra.replaceChildren();
      try {
        startSession(await api("/v1/auth/login", { method: "POST", body: v }));
      } catch (e) {
        if (e instanceof ApiError && e.body && e.body.code === "EMAIL_UNVERIFIED") {
          extra.append(
            h("p", {}, `Confirm your address first: we sent a link to ${e.body.maskedEmail || "your inbox"}.`),
            h(
              "button",
              {
                type: "button",
                class: "secondary",
                onclick: async (ev) => {
                  await api("/v1/auth/resend-verification", { method: "POST", body: { email: v.email } }).catch(() => {});
                  ev.target.textContent = "Sent again";
                },
              },
              "Send the link again",
            ),
          );
        }
        if (e instanceof ApiError && e.body && e.body.code === "INVITE_PENDING") {
          extra.append(h("p", {}, "This account was invited: open the invitation link from your mail to choose a password."));
        }
        throw e;
      }
      go(nextPath(), true);
    },
    extra,
    h("p", {}, h("a", { href: "/forgot-password" }, "Forgot your password?")),
    h("p", {}, "No account yet? ", h("a", { href: "/register" }, "Create one"), " · ", h("a", { href: "/waitlist" }, "Join the waitlist")),
  );
}

export function register() {
  authForm(
    "Create your workspace",
    [
      ["name", "Your name", "text", "name"],
      ["email", "Email", "email", "username"],
      ["password", "Password (at least 8 characters)", "password", "new-password", { minlength: 8 }],
      ["orgName", "Organization", "text", "organization"],
    ],
    "Create workspace",
    async (v) => {
      const b = await api("/v1/auth/register", { method: "POST", body: v });
      startSession(b);
      shownKey = { apiKey: b.apiKey, projectId: b.project && b.project.id };
      go("/welcome", true);
    },
    h("p", {}, "Have an account? ", h("a", { href: "/signin" }, "Sign in")),
  );
}

export function welcome() {
  if (!shownKey) return go("/bugs", true);
  // A real report through the normal pipeline, to triage at once.
  const projectId = shownKey.projectId;
  const demo = h(
    "button",
    {
      type: "button",
      onclick: async () => {
        const r = await api(`/v1/projects/${encodeURIComponent(projectId)}/test-event`, { method: "POST", body: { platform: "web" } });
        go(`/bugs/${r.id}`);
      },
    },
    "Send a demo report",
  );
  const snippet = `curl -X POST ${location.origin}/v1/ingest \\\n  -H 'X-Service-Key: ${shownKey.apiKey}' -H 'Content-Type: application/json' \\\n  -d '{"title":"Checkout button does nothing","severity":"high","url":"https://shop.example/cart"}'`;
  show(
    h("h1", {}, "Your workspace is ready"),
    h("p", {}, "This capture key is shown once. Keep it where your apps can send reports with it."),
    h("div", { class: "card row" }, h("code", { id: "capture-key" }, shownKey.apiKey), copyButton(shownKey.apiKey)),
    h("h2", {}, "Send a first report"),
    h("pre", {}, snippet),
    copyButton(snippet),
    h("p", {}, "Sentry SDKs work too: see ", h("a", { href: "/projects" }, "Projects"), " for the DSN and snippets."),
    h("p", { class: "row" }, demo, h("a", { href: "/bugs" }, "Go to the bugs")),
  );
  shownKey = null;
}

export function forgotPassword() {
  const form = authForm("Reset your password", [["email", "Email", "email", "username"]], "Send me a link", async (v) => {
    const b = await api("/v1/auth/forgot-password", { method: "POST", body: v });
    show(note(b.message || "If an account exists for this address, a link is on its way."), h("p", {}, h("a", { href: "/signin" }, "Back to sign in")));
  });
  form.append(h("p", {}, h("a", { href: "/signin" }, "Back to sign in")));
}

export function resetPassword() {
  const token = linkParams.get("token");
  if (!token) return show(note("This page opens from the link in a password-reset mail."), h("p", {}, h("a", { href: "/forgot-password" }, "Ask for a new link")));
  authForm(
    "Choose a new password",
    [
      ["email", "Email", "email", "username", { value: linkParams.get("email") || "" }],
      ["newPassword", "New password (at least 8 characters)", "password", "new-password", { minlength: 8 }],
    ],
    "Save password",
    async (v) => {
      await api("/v1/auth/reset-password", { method: "POST", body: { ...v, token } });
      linkParams.delete("token");
      session.clear();
      show(note("Your password is changed. Every earlier session has ended."), h("p", {}, h("a", { href: "/signin" }, "Sign in")));
    },
  );
}

export async function verifyEmail() {
  const token = linkParams.get("token");
  if (!token) return show(note("This page opens from the link in a verification mail."));
  show(note("Confirming your address…"));
  try {
    await api("/v1/auth/verify-email", { method: "POST", body: { token } });
    linkParams.delete("token");
    show(note("Your address is confirmed."), h("p", {}, h("a", { href: session.get() ? "/bugs" : "/signin" }, "Continue")));
  } catch (e) {
    show(note(errorText(e)), h("p", {}, h("a", { href: "/signin" }, "Sign in to send a new link")));
  }
}

export function waitlist() {
  const form = authForm(
    "Join the waitlist",
    [
      ["name", "Your name", "text", "name"],
      ["email", "Email", "email", "username"],
      ["orgName", "Organization", "text", "organization"],
    ],
    "Join",
    async (v) => {
      const b = await api("/v1/auth/waitlist", { method: "POST", body: v });
      show(note(b.message || "You are on the list."));
    },
  );
  form.insertBefore(h("label", {}, "What will you use it for? (optional)", h("textarea", { name: "useCase", rows: 3, maxlength: 2000 })), form.querySelector("button"));
}

// The approved-signup link: /signup#token=...
export async function completeSignup() {
  const token = linkParams.get("token");
  let who = null;
  try {
    who = token ? await api(`/v1/auth/approval/${encodeURIComponent(token)}`) : null;
  } catch {
    who = null;
  }
  if (!who) return show(note("This signup link is invalid or has expired."), h("p", {}, h("a", { href: "/waitlist" }, "Join the waitlist again")));
  authForm(
    `Welcome to ${who.orgName}`,
    [
      ["email", "Email", "email", "username", { value: who.email, readonly: true }],
      ["name", "Your name", "text", "name", { value: who.name || "" }],
      ["password", "Password (at least 8 characters)", "password", "new-password", { minlength: 8 }],
    ],
    "Create my account",
    async (v) => {
      const b = await api("/v1/auth/complete-signup", { method: "POST", body: { token, name: v.name, password: v.password } });
      linkParams.delete("token");
      startSession(b);
      // An operator's customer joins an organization made for it, whose key
      // was never shown here: no key page then.
      shownKey = b.apiKey ? { apiKey: b.apiKey, projectId: b.project && b.project.id } : null;
      go(b.apiKey ? "/welcome" : "/bugs", true);
    },
  );
}

// The invitation link: /invite#token=...
export async function acceptInvite() {
  const token = linkParams.get("token");
  let inv = null;
  try {
    inv = token ? await api("/v1/auth/invitations/inspect", { method: "POST", body: { token } }) : null;
  } catch {
    inv = null;
  }
  if (!inv) return show(note("This invitation is invalid, expired or already used. Ask your teammate to send it again."));
  authForm(
    `Join ${inv.orgName}`,
    [
      ["email", "Email", "email", "username", { value: inv.email, readonly: true }],
      ["newPassword", "Choose a password (at least 8 characters)", "password", "new-password", { minlength: 8 }],
    ],
    "Accept invitation",
    async (v) => {
      const b = await api("/v1/auth/invitations/accept", { method: "POST", body: { token, email: v.email, newPassword: v.newPassword } });
      linkParams.delete("token");
      startSession(await api("/v1/auth/login", { method: "POST", body: { email: v.email, password: v.newPassword } }));
      const s = session.get();
      if (b.orgId && s.orgId !== b.orgId) {
        // Signed in to another organization first: open the one just joined.
        startSession({ ...(await api("/v1/auth/switch-org", { method: "POST", body: { orgId: b.orgId } })), user: s.user });
      }
      go("/bugs", true);
    },
  );
}

// The deletion link: /delete-account#token=...
export function confirmDeletion() {
  const token = linkParams.get("token");
  if (!token) return show(note("This page opens from the link in an account-deletion mail."));
  show(
    actionForm(
      { class: "card auth" },
      [
        h("h1", {}, "Delete your account"),
        h("p", {}, "This removes your account, its memberships, comments and notifications, and every organization where you are the only member. It cannot be undone."),
        h("button", { type: "submit", class: "danger" }, "Delete my account"),
      ],
      async () => {
        const b = await api("/v1/auth/data-delete/confirm", { method: "POST", body: { token } });
        linkParams.delete("token");
        session.clear();
        show(note(b.message || "Your account is deleted."));
      },
    ),
  );
}

function soleAdmin(e) {
  if (!(e instanceof ApiError && e.body && e.body.organizations)) return null;
  return h("ul", {}, ...e.body.organizations.map((o) => h("li", {}, o.orgName)));
}

export async function account() {
  const me = await api("/v1/auth/me");
  const status = h("p", { role: "status" });
  const action = (label, path, cls) =>
    h(
      "button",
      {
        type: "button",
        class: cls || "secondary",
        onclick: async () => {
          status.replaceChildren();
          try {
            const b = await api(path, { method: "POST" });
            status.textContent = b.message || "Done.";
          } catch (e) {
            status.replaceChildren(h("span", { class: "error" }, errorText(e)), soleAdmin(e) || "");
          }
        },
      },
      label,
    );
  show(
    h("h1", {}, "Your account"),
    h(
      "dl",
      { class: "card facts" },
      h("dt", {}, "Name"),
      h("dd", {}, me.name),
      h("dt", {}, "Email"),
      h("dd", {}, me.email, " ", me.email_verified ? h("span", { class: "badge" }, "verified") : action("Send verification mail", "/v1/auth/send-verification")),
      h("dt", {}, "Organizations"),
      h("dd", {}, me.orgs.map((o) => `${o.orgName} (${o.role})`).join(", ")),
    ),
    h("h2", {}, "Your data"),
    h("p", {}, "We mail you a one-time link to a JSON file of your account, memberships, comments, notifications and preferences."),
    action("Email me my data", "/v1/auth/data-export"),
    h("h2", {}, "Delete your account"),
    h("p", {}, "We mail you a link that confirms the deletion (valid one hour)."),
    action("Email me a deletion link", "/v1/auth/data-delete/request", "danger"),
    status,
  );
}

// Re-issues the session for another organization of the account.
export async function switchOrg(orgId) {
  const s = session.get();
  const b = await api("/v1/auth/switch-org", { method: "POST", body: { orgId } });
  session.set({ ...s, accessToken: b.accessToken, refreshToken: b.refreshToken, orgId: b.org.id });
}
