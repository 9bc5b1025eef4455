// Drives `ptyseam mcp --tools core` and `--tools full` over stdio with the
// official TypeScript MCP client: which tools each profile lists, the core
// list's size and guidance, and that the core tools work as in full.
// Usage: node profiles-client.mjs PATH_TO_PTYSEAM WORKDIR
// It asserts as it goes and prints one JSON summary line with the list
// sizes on success.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, workdir] = process.argv.slice(2);
const connect = async (profile) => {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "--structured-results", "--log-level", "error", "--tools", profile],
    env: { ...process.env },
    stderr: "inherit",
  });
  const client = new Client({ name: `ptyseam-profile-${profile}`, version: "1.0.0" });
  await client.connect(transport);
  return client;
};
const figures = {};

// full: every tool, with output schemas.
const full = await connect("full");
const fullList = (await full.listTools()).tools;
figures.fullBytes = JSON.stringify({ tools: fullList }).length;
figures.fullTools = fullList.length;
assert.ok(fullList.some((t) => t.name === "bg_launch"));
assert.ok(fullList.some((t) => t.name === "pty_read"));
assert.ok(fullList.every((t) => t.name === "bg_drop" || t.outputSchema), "full serves output schemas");
await full.close();

// standard (the default: no --tools): the everyday tools, without output
// schemas, in at most 16 KB.
{
  const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--structured-results", "--log-level", "error"], env: { ...process.env }, stderr: "inherit" });
  const std = new Client({ name: "ptyseam-profile-default", version: "1.0.0" });
  await std.connect(transport);
  const list = (await std.listTools()).tools;
  figures.standardBytes = JSON.stringify({ tools: list }).length;
  assert.deepEqual(list.map((t) => t.name).sort(), ["bg_launch", "bg_read", "bg_stop", "pty_close", "pty_keys", "pty_list", "pty_open",
    "pty_read", "pty_screen", "pty_secret", "pty_send", "pty_signal", "pty_tail", "pty_wait"]);
  assert.ok(figures.standardBytes <= 16 * 1024, `default tool list is ${figures.standardBytes} bytes`);
  assert.ok(list.every((t) => !t.outputSchema), "the default profile serves no output schemas");
  const opened = await std.callTool({ name: "pty_open", arguments: { command: "bash", cwd: workdir } });
  const sent = await std.callTool({ name: "pty_send", arguments: { id: opened.structuredContent.sessionId, data: "echo std-$((40+2))" } });
  assert.match(sent.structuredContent.delta, /std-42/);
  await std.callTool({ name: "pty_close", arguments: { id: opened.structuredContent.sessionId } });
  await std.close();
}

// core: the seed's four, pty_keys, pty_signal, pty_wait and pty_read,
// under 12 KB.
const core = await connect("core");
const tools = (await core.listTools()).tools;
figures.coreBytes = JSON.stringify({ tools }).length;
assert.deepEqual(tools.map((t) => t.name).sort(), ["pty_close", "pty_keys", "pty_open", "pty_read", "pty_send", "pty_signal", "pty_tail", "pty_wait"]);
assert.ok(figures.coreBytes < 12 * 1024, `core tool list is ${figures.coreBytes} bytes`);
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
// The guidance is kept: limits, deadlines, full-screen programs, Ctrl-C.
assert.match(byName.pty_send.description, /30 s/);
assert.match(byName.pty_send.description, /timeoutMs/);
assert.match(byName.pty_send.description, /pty_keys/);
assert.match(byName.pty_send.description, /\\u0003/);
assert.match(byName.pty_keys.description, /Escape/);
// and no tool points at one the profile does not serve.
for (const t of tools) {
  assert.doesNotMatch(t.description, /bg_launch|bg_read|pty_list|pty_screen|pty_resize/, `${t.name} names a tool core does not serve`);
}
// The results keep their structured content.
const opened = await core.callTool({ name: "pty_open", arguments: { command: "bash", cwd: workdir } });
assert.ok(!opened.isError);
const id = opened.structuredContent.sessionId;
const sent = await core.callTool({ name: "pty_send", arguments: { id, data: "echo core-$((40+2))" } });
assert.match(sent.structuredContent.delta, /core-42/);
assert.equal(sent.structuredContent.waitReason, "prompt");
// A tool outside the profile is not there.
await assert.rejects(core.callTool({ name: "bg_launch", arguments: { command: "true" } }), /bg_launch/);
await core.callTool({ name: "pty_close", arguments: { id } });
await core.close();
console.log(JSON.stringify({ ok: true, figures }));
