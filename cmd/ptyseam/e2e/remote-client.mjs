// Drives `ptyseam mcp --remote-hosts FILE` over stdio with the official
// TypeScript MCP client: pty_open on a configured remote host.
// Usage: node remote-client.mjs PATH_TO_PTYSEAM HOSTS_FILE HOST_NAME USER
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { connectWithTargets } from "./targets.mjs";

const [bin, hostsFile, hostName, user] = process.argv.slice(2);
// pty_open names the host; its schema lists the configured ones.
const { client, call, ok } = await connectWithTargets(bin, "--remote-hosts", hostsFile, "ptyseam-e2e-remote", hostName);

const opened = await ok("pty_open", { command: "bash", target: hostName });
assert.equal(opened.status.kind, "running");
const id = opened.sessionId;

// Sends settle on the remote prompt, in milliseconds, not on silence.
const t0 = Date.now();
const t = await ok("pty_send", { id, data: "true" });
const trueMs = Date.now() - t0;
assert.equal(t.waitReason, "prompt");
const who = await ok("pty_send", { id, data: "echo \"remote:$(whoami):$((6*7))\"" });
assert.equal(who.waitReason, "prompt");
assert.match(who.delta, new RegExp(`remote:${user}:42`));

// Signal and tail work as on a local session: a silent sleep settles on
// silence, SIGINT reaches it on the remote host. Silence says nothing about
// sleep: a SIGINT that reached the remote shell before it started sleep
// would leave sleep running and no rc=130. The job says it runs (it holds
// the terminal by then) and the client waits for that line.
const slow = await ok("pty_send", { id, data: "sh -c 'echo sleeping; exec sleep 100'" });
assert.notEqual(slow.waitReason, "prompt");
const running = await ok("pty_wait", { conditions: [{ kind: "output", target: id, pattern: "^sleeping$", fromLine: 0 }], timeoutMs: 50000 });
assert.equal(running.fired, true);
const sig = await ok("pty_signal", { id, signal: "SIGINT" });
assert.equal(sig.delivered, true);
let tail = sig.output; // output is returned once: the tail continues it
for (const deadline = Date.now() + 50000; Date.now() < deadline && !/\$ $/.test(tail); ) {
  tail += (await ok("pty_tail", { id })).text;
  await new Promise((r) => setTimeout(r, 20));
}
const rc = await ok("pty_send", { id, data: "echo rc=$?" });
assert.match(rc.delta, /rc=130/);

// A host that is not configured is refused with the list.
const bad = await call("pty_open", { command: "bash", target: "not-configured" });
assert.ok(bad.isError);

const listed = await ok("pty_list", {});
assert.equal(listed.sessions.length, 1);
assert.equal(listed.sessions[0].type, "ssh");
const closed = await ok("pty_close", { id });
assert.equal(closed.closed, true);
await client.close();
console.log(JSON.stringify({ ok: true, trueMs }));
