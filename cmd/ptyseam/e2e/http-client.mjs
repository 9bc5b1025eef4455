// Two clients of `ptyseam mcp --http` at once: isolation and the token.
// Usage: node http-client.mjs URL TOKEN
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const connect = async (tok) => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${tok}` } },
  });
  const client = new Client({ name: "ptyseam-e2e-http", version: "1.0.0" });
  await client.connect(transport);
  client.end = async () => { await transport.terminateSession(); await client.close(); };
  return client;
};
const ok = async (client, name, args) => {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
};

// A wrong token is refused.
let refused = false;
try {
  await connect("not-the-token");
} catch (e) {
  refused = e.code === 401 || /401|wrong bearer token/i.test(String(e));
  if (!refused) console.error("unexpected error:", e);
}
assert.ok(refused, "a wrong token was not refused");

const a = await connect(token);
const b = await connect(token);
const sa = await ok(a, "pty_open", { command: "bash" });
const sb = await ok(b, "pty_open", { command: "bash" });
const [ra, rb] = await Promise.all([
  ok(a, "pty_send", { id: sa.sessionId, data: "echo client-a" }),
  ok(b, "pty_send", { id: sb.sessionId, data: "echo client-b" }),
]);
assert.match(ra.delta, /client-a/);
assert.match(rb.delta, /client-b/);

// b guesses a's session id: FOREIGN_SESSION, and a's list is a's alone.
const stolen = await b.callTool({ name: "pty_send", arguments: { id: sa.sessionId, data: "echo stolen" } });
assert.ok(stolen.isError);
assert.match(stolen.content[0].text, /FOREIGN_SESSION/);
const la = await ok(a, "pty_list", {});
assert.deepEqual(la.sessions.map((s) => s.sessionId), [sa.sessionId]);

await a.end();
await b.end();
console.log(JSON.stringify({ ok: true, a: sa.sessionId, b: sb.sessionId }));
