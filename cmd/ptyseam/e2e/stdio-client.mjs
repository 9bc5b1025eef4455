// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client.
// Usage: node stdio-client.mjs PATH_TO_PTYSEAM
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bin = process.argv[2];
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-e2e", version: "1.0.0" });
await client.connect(transport);
const serverPid = transport.pid;

const call = async (name, args, opts) => {
  const r = await client.callTool({ name, arguments: args }, undefined, opts);
  return r;
};
const ok = async (name, args, opts) => {
  const r = await call(name, args, opts);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, `${name} returned no structured content`);
  return r.structuredContent;
};

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
for (const want of ["pty_close", "pty_list", "pty_open", "pty_read", "pty_send", "pty_signal", "pty_tail"]) {
  assert.ok(names.includes(want), `tool ${want} missing from ${names}`);
}
for (const t of tools) {
  assert.equal(t.inputSchema.type, "object", `${t.name} input schema`);
}

// A persistent shell: state survives between sends.
const opened = await ok("pty_open", { command: "bash" });
assert.match(opened.sessionId, /^pty_/);
assert.equal(opened.status.kind, "running");
const id = opened.sessionId;
await ok("pty_send", { id, data: "cd /tmp && export E2E_VAR=from-mcp" });
const sent = await ok("pty_send", { id, data: 'echo "$PWD $E2E_VAR"' });
assert.match(sent.delta, /\/tmp from-mcp/);
assert.equal(sent.waitReason, "prompt");

// Output is returned once: the send's delta moved the tail position past
// it, so a tail returns neither it nor anything twice.
const tail1 = await ok("pty_tail", { id });
const tail2 = await ok("pty_tail", { id });
assert.doesNotMatch(tail1.text, /from-mcp/, "a tail resent the send's output");
assert.equal(tail2.text, "", "a second tail resent output");
assert.ok(!tail2.truncated, "a tail of nothing said output was cut");

// A password prompt shows at once, without a newline.
const pw = await ok("pty_send", { id, data: "read -s -p 'Password: ' secret; echo; echo got-${#secret}" });
assert.equal(pw.waitReason, "stdin_read");
assert.match(pw.delta, /Password: $/);
const answered = await ok("pty_send", { id, data: "hunter2" });
assert.match(answered.delta, /got-7/);
assert.doesNotMatch(answered.delta, /hunter2/, "the secret was echoed");

// A long command reports progress and can be cancelled.
let progressed = 0;
const controller = new AbortController();
const longSend = call("pty_send", { id, data: "for i in $(seq 1 100); do echo tick-$i; sleep 0.1; done" }, {
  onprogress: () => { progressed++; if (progressed === 3) controller.abort(); },
  signal: controller.signal,
  resetTimeoutOnProgress: true,
}).then(() => "settled", (e) => "aborted:" + e.name);
assert.match(await longSend, /aborted/);
assert.ok(progressed >= 3, `only ${progressed} progress notifications`);
// The cancel interrupted the loop: the shell answers promptly again.
const after = await ok("pty_send", { id, data: "echo back-at-prompt" });
assert.match(after.delta, /back-at-prompt/);
assert.equal(after.waitReason, "prompt");

// Errors carry the code string.
const bad = await call("pty_send", { id: "pty_notmine", data: "x" });
assert.ok(bad.isError);
assert.match(bad.content[0].text, /NO_SESSION/);
const badArgs = await call("pty_tail", { id, lines: "many" });
assert.ok(badArgs.isError);
assert.match(badArgs.content[0].text, /INVALID_ARGUMENT/);

// A second session, left open on purpose: disconnecting must close it.
const second = await ok("pty_open", { command: "python3 -q" });
// The open may settle before python prompts (on a loaded machine its start
// outlasts the quiet window: inferred_idle): wait for the prompt itself.
// Output is returned once: the tails continue after the open's output.
let secondText = second.initialOutput;
for (const deadline = Date.now() + 60000; !/>>> $/.test(secondText); ) {
  assert.ok(Date.now() < deadline, `python never prompted: ${JSON.stringify(secondText)} (open: ${JSON.stringify(second)})`);
  await new Promise((resolve) => setTimeout(resolve, 20));
  secondText += (await ok("pty_tail", { id: second.sessionId })).text;
}
const listed = await ok("pty_list", {});
assert.equal(listed.sessions.length, 2);

const closed = await ok("pty_close", { id });
assert.equal(closed.closed, true);
const again = await ok("pty_close", { id });
assert.equal(again.closed, false);

await client.close();
console.log(JSON.stringify({ ok: true, serverPid, tools: names, progressed, secondSession: second.sessionId }));
