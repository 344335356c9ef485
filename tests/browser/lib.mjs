// What the browser tests share: real service-server processes, signing in
// through the console's form, waiting for a page to settle, following a
// mailed link (file mail provider), and plain API calls.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const servers = [];
let stopping = false;

// A server named `name` on `database` (default: a SQLite file in `work`).
// `extra` adds flags, `env` overrides variables (defaults: no rate limits,
// a fixed JWT secret, a file mail provider in <work>/mail-<name>, private
// webhook destinations allowed). Resolves with its base URL, what it
// printed to stderr so far and its mail folder; stopAll() ends it.
export function startServer(binary, work, name, { extra = [], env = {}, database } = {}) {
  const mailDir = `${work}/mail-${name}`;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["--listen", "127.0.0.1:0", "--database", database ?? `sqlite:${work}/${name}.db`, ...extra], {
      env: {
        ...process.env,
        SERVICE_RATE_LIMITS: "off",
        SERVICE_JWT_SECRET: "operations-browser-test-secret-0123456789abcdef",
        SERVICE_MAIL_URL: `file:${mailDir}`,
        SERVICE_ALLOW_PRIVATE_DESTINATIONS: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    servers.push(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) resolve({ child, base: m[1], stderr: () => err, mailDir });
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code, signal) => {
      if (!stopping) console.error(`server ${name} exited (${code ?? signal}): ${err.slice(-2000)}`);
      reject(new Error(`server ${name} exited ${code ?? signal}: ${err.slice(-2000)}`));
    });
  });
}

// SIGTERM to every server started here.
export function stopAll() {
  stopping = true;
  for (const c of servers) c.kill("SIGTERM");
}

// Signs in through the console's form on a fresh page of `context`; resolves
// on the bug list.
export async function signInPage(context, base, email, password) {
  const p = await context.newPage();
  await p.setViewport({ width: 1280, height: 860 });
  await p.goto(base + "/signin");
  await p.waitForSelector('input[name="email"]');
  await p.type('input[name="email"]', email);
  await p.type('input[name="password"]', password);
  await Promise.all([p.waitForSelector("#bug-count"), p.click('button[type="submit"]')]);
  await p.waitForFunction(() => !document.querySelector("main[aria-busy]"));
  return p;
}

// Resolves once the page shows a heading and is no longer loading.
export function settled(p) {
  return p.waitForFunction(() => document.querySelector("main h1") && !document.querySelector("main[aria-busy]"));
}

// The path and fragment of the first mailed link in `mailDir` matching `re`
// (one .eml file per message; the provider renames finished files into
// place). With `to`: only messages to that address, looked for in every
// server's mail folder beside `mailDir` (servers on one database send each
// other's queued mail). Waits up to 10 s.
export async function mailedLink(mailDir, re, { to } = {}) {
  const parent = mailDir.slice(0, mailDir.lastIndexOf("/"));
  const folders = () => {
    if (!to) return [mailDir];
    try {
      return readdirSync(parent).filter((n) => n.startsWith("mail-")).map((n) => `${parent}/${n}`);
    } catch {
      return [];
    }
  };
  for (let i = 0; i < 100; i++) {
    for (const dir of folders()) {
      let files = [];
      try {
        files = readdirSync(dir);
      } catch {
        files = [];
      }
      for (const f of files.filter((name) => name.endsWith(".eml")).sort()) {
        const text = readFileSync(`${dir}/${f}`, "utf8");
        if (to && !text.includes(`\r\nTo: ${to}\r\n`)) continue;
        const m = text.match(re);
        if (m) return new URL(m[0]).pathname + new URL(m[0]).search + new URL(m[0]).hash;
      }
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`no mail${to ? ` to ${to}` : ""} in ${to ? parent + "/mail-*" : mailDir} with ${re}`);
}

// One API call: `token` as bearer, `org` as X-Service-Org, `body` as JSON.
// Resolves with the status and the body (parsed JSON, else text).
export async function api(base, method, path, { token, org, body, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (org) h["X-Service-Org"] = org;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const res = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text
  }
  return { status: res.status, body: parsed };
}
