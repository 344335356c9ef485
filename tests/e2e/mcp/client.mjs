// The official MCP TypeScript SDK client (@modelcontextprotocol/sdk, pinned
// in package-lock.json) against a real service-server's POST /v1/mcp, as a
// coding agent would use it: Streamable HTTP with the agent token as bearer.
//
//   node client.mjs SETUP_JSON
//
// SETUP_JSON (written by tests/e2e/mcp_client_test.cpp): {url, token,
// limitedToken, projectId, bugId, otherBugId, handoff}. `token` has every
// scope and a grant for projectId; `limitedToken` only create_bug (each
// tool's scope is missing); `handoff`: a bug was handed to agents, so
// listen_handoffs returns it. Prints one line per check and "mcp client: ok";
// exits 1 at the first failure.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

const setup = JSON.parse(readFileSync(process.argv[2], "utf8"));

async function connect(token) {
  const client = new Client({ name: "service-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(setup.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

// The JSON a tool answered (its text content), and its structured content.
function answer(result, label) {
  assert.equal(result.isError, false, `${label}: ${JSON.stringify(result)}`);
  const text = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, text, `${label}: structured content equals the text`);
  return text;
}

function refused(result, status, code, label) {
  assert.equal(result.isError, true, `${label}: ${JSON.stringify(result)}`);
  const body = JSON.parse(result.content[0].text);
  assert.equal(body.status, status, `${label}: ${JSON.stringify(body)}`);
  if (code) assert.equal(body.code, code, `${label}: ${JSON.stringify(body)}`);
  return body;
}

let failed = false;
const clients = [];
try {
  // initialize: the SDK asks for its latest version; this server speaks it.
  const { client, transport } = await connect(setup.token);
  clients.push(client);
  assert.equal(client.getServerVersion().name, "service");
  assert.ok(client.getServerCapabilities().tools, "tools capability");
  assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
  assert.equal(transport.sessionId, undefined, "stateless: no session id");
  assert.match(client.getInstructions() ?? "", /claim_issue/);
  console.log(`initialize: ok (${transport.protocolVersion})`);
  await client.ping();

  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ["list_bugs", "search_bugs", "get_bug", "claim_issue", "renew_claim", "release_claim", "complete_claim",
      "listen_handoffs", "ack_bug", "list_evidence"],
  );
  for (const t of tools) assert.equal(t.inputSchema.type, "object", t.name);
  console.log(`tools/list: ok (${tools.length} tools)`);

  const call = (name, args, c = client) => c.callTool({ name, arguments: args });

  const list = answer(await call("list_bugs", { projectId: setup.projectId }), "list_bugs");
  assert.ok(list.bugs.some((b) => b.id === setup.bugId), "list_bugs shows the bug");
  const found = answer(await call("search_bugs", { q: "checkout" }), "search_bugs");
  assert.ok(found.groups.some((g) => g.memberIds.includes(setup.bugId)), "search_bugs finds the bug");
  const bug = answer(await call("get_bug", { bugId: setup.bugId }), "get_bug");
  assert.equal(bug.bug.id, setup.bugId);
  assert.ok(bug.events.length >= 1 && bug.occurrences.length >= 1 && bug.users.length >= 1, "repro context");
  refused(await call("get_bug", { bugId: setup.otherBugId }), 404, undefined, "get_bug of an ungranted project");
  console.log("reads: ok");

  // Claims: claim, renew, release; a second claim, complete.
  const lease = (claim) => ({ claimId: claim.claimId, generation: claim.generation, fencingToken: claim.fencingToken });
  const ids = { projectId: setup.projectId, issueId: setup.bugId };
  const claimCommand = { commandId: randomUUID(), ...ids, ttlSeconds: 120 };
  const first = answer(await call("claim_issue", claimCommand), "claim_issue").claim;
  assert.equal(first.status, "active");
  const replay = answer(await call("claim_issue", claimCommand), "claim_issue replayed");
  assert.equal(replay.replayed, true);
  assert.equal(replay.claim.claimId, first.claimId);
  refused(await call("claim_issue", { commandId: randomUUID(), ...ids }), 409, "CLAIM_HELD", "second claim");
  const renewed = answer(await call("renew_claim", { commandId: randomUUID(), ...ids, ...lease(first), ttlSeconds: 300 }), "renew_claim").claim;
  assert.equal(renewed.status, "active");
  const released = answer(await call("release_claim", { commandId: randomUUID(), ...ids, ...lease(first) }), "release_claim").claim;
  assert.equal(released.status, "released");
  refused(await call("renew_claim", { commandId: randomUUID(), ...ids, ...lease(first) }), 409, "LEASE_STALE", "stale renew");
  const second = answer(await call("claim_issue", { commandId: randomUUID(), ...ids }), "claim_issue again").claim;
  assert.ok(BigInt(second.fencingToken) > BigInt(first.fencingToken), "fencing tokens increase");
  const completed = answer(
    await call("complete_claim", { commandId: randomUUID(), ...ids, ...lease(second), receiptId: "pr-42" }),
    "complete_claim",
  ).claim;
  assert.equal(completed.status, "completed");
  console.log("claims: ok");

  // The handoff: listen, then ack working and a pull request.
  const heard = answer(await call("listen_handoffs", { projectId: setup.projectId }), "listen_handoffs");
  assert.equal(typeof heard.cursor, "string");
  if (setup.handoff) assert.ok(heard.notifications.some((n) => n.bugId === setup.bugId), "the handed bug");
  const again = answer(await call("listen_handoffs", { projectId: setup.projectId, after: heard.cursor }), "listen again");
  assert.equal(again.notifications.length, 0);
  const working = answer(await call("ack_bug", { bugId: setup.bugId, action: "working" }), "ack_bug working");
  assert.equal(working.state, "working");
  const pr = answer(
    await call("ack_bug", { bugId: setup.bugId, action: "working", prUrl: "https://code.example/acme/shop/pull/42" }),
    "ack_bug prUrl",
  );
  assert.equal(pr.state, "pr_opened");
  refused(await call("ack_bug", { bugId: setup.bugId, action: "working", prUrl: "http://insecure.example/pr/1" }), 400, "PR_URL_INVALID", "ack_bug bad prUrl");
  console.log("handoff: ok");

  refused(
    await call("list_evidence", { projectId: setup.projectId, occurrenceId: bug.occurrences[0].id }),
    503,
    "storage_unavailable",
    "list_evidence",
  );
  console.log("evidence: ok (storage_unavailable)");

  // Protocol errors surface as the SDK's McpError.
  await assert.rejects(call("drop_tables", {}), (e) => e.code === -32602);
  await assert.rejects(call("get_bug", { bugId: "nope" }), (e) => e.code === -32602);
  console.log("errors: ok");

  // One refusal per missing scope.
  const limited = (await connect(setup.limitedToken)).client;
  clients.push(limited);
  const cmd = () => ({ commandId: randomUUID(), ...ids });
  const missing = [
    ["list_bugs", {}],
    ["search_bugs", { q: "checkout" }],
    ["get_bug", { bugId: setup.bugId }],
    ["claim_issue", cmd()],
    ["renew_claim", { ...cmd(), ...lease(second) }],
    ["release_claim", { ...cmd(), ...lease(second) }],
    ["complete_claim", { ...cmd(), ...lease(second), receiptId: "r" }],
    ["listen_handoffs", { projectId: setup.projectId }],
    ["ack_bug", { bugId: setup.bugId, action: "working" }],
    ["list_evidence", { projectId: setup.projectId, occurrenceId: bug.occurrences[0].id }],
  ];
  for (const [name, args] of missing) refused(await call(name, args, limited), 403, "SCOPE_REQUIRED", `${name} without its scope`);
  console.log(`scopes: ok (${missing.length} refusals)`);

  // A revoked or unknown token cannot connect.
  await assert.rejects(connect("sv_pat_unknown0000000000000000000000000000"), (e) => e.code === 401);
  console.log("mcp client: ok");
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  for (const c of clients) await c.close().catch(() => {});
}
process.exit(failed ? 1 : 0);
