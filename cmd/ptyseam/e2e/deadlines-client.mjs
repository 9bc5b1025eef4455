// Drives `ptyseam mcp --max-timeout 20s` over stdio with the official
// TypeScript MCP client through the deadlines a model chooses: timeoutMs
// and quietMs on pty_send and pty_open, and the typed error past the
// deployer's maximum.
// Usage: node deadlines-client.mjs PATH_TO_PTYSEAM WORKDIR
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, workdir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error", "--max-timeout", "20s"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-deadlines-e2e", version: "1.0.0" });
await client.connect(transport);
const text = (r) => r.content.map((c) => c.text).join("");
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  return r;
};

// The tool list says when to use them and what the maximum is.
const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
for (const name of ["pty_send", "pty_open"]) {
  const t = byName[name];
  assert.match(t.description, /timeoutMs/);
  assert.match(t.description, /long build/);
  assert.match(t.description, /20000/);
  assert.equal(t.inputSchema.properties.timeoutMs.maximum, 20000);
  assert.equal(t.inputSchema.properties.quietMs.maximum, 20000);
}

const opened = await call("pty_open", { command: "bash", cwd: workdir });
const id = opened.structuredContent.sessionId;

// Past the deployer's maximum: a typed error naming the field.
const refused = await client.callTool({ name: "pty_send", arguments: { id, data: "true", timeoutMs: 20001 } });
assert.ok(refused.isError);
assert.equal(refused._meta.code, "INVALID_ARGUMENT");
assert.match(text(refused), /"timeoutMs"/);
assert.match(text(refused), /20000/);

// A short deadline: control comes back while the program runs (the quiet
// window is longer, so only the deadline can end the wait).
const short = await call("pty_send", { id, data: "sleep 30", timeoutMs: 800, quietMs: 20000 });
assert.equal(short.structuredContent.waitReason, "timeout");
assert.equal(short.structuredContent.status.kind, "running");
await call("pty_signal", { id, signal: "SIGINT" });

// A long quiet window waits through a pause that the default 3 s window
// would have settled on. The window is the most the server allows: under
// load the pause is sleep's 4 s plus the shell's time to start and reap it.
const paused = await call("pty_send", { id, data: "echo one; sleep 4; echo two-$((1+1))", quietMs: 20000 });
assert.match(paused.structuredContent.delta, /two-2/);
assert.equal(paused.structuredContent.waitReason, "prompt");

// pty_open takes the same fields.
const slow = await call("pty_open", { command: "sleep 30", cwd: workdir, timeoutMs: 500, quietMs: 20000 });
assert.equal(slow.structuredContent.waitReason, "timeout");
await call("pty_close", { id: slow.structuredContent.sessionId });
await call("pty_close", { id });
await client.close();
console.log(JSON.stringify({ ok: true }));
