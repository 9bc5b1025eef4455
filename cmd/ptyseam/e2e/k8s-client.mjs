// Drives `ptyseam mcp --k8s-targets FILE` over stdio with the official
// TypeScript MCP client: pty_open on a configured Kubernetes target (a new
// pod per session, the agent inside).
// Usage: node k8s-client.mjs PATH_TO_PTYSEAM TARGETS_FILE TARGET_NAME
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { connectWithTargets } from "./targets.mjs";

const [bin, targetsFile, targetName] = process.argv.slice(2);
// pty_open names the target; its schema lists the configured ones.
const { client, call, ok } = await connectWithTargets(bin, "--k8s-targets", targetsFile, "ptyseam-e2e-k8s", targetName);

const o0 = Date.now();
const opened = await ok("pty_open", { command: "bash", target: targetName });
const openMs = Date.now() - o0;
assert.equal(opened.status.kind, "running");
const id = opened.sessionId;

// Sends settle on the pod's prompt, and on a read of the terminal.
const t0 = Date.now();
const t = await ok("pty_send", { id, data: "true" });
const trueMs = Date.now() - t0;
assert.equal(t.waitReason, "prompt");
const host = await ok("pty_send", { id, data: "echo \"pod:$(hostname):$((6*7))\"" });
assert.equal(host.waitReason, "prompt");
assert.match(host.delta, /pod:.*:42/);
const rd = await ok("pty_send", { id, data: "read x; echo \"got:$x\"" });
assert.equal(rd.waitReason, "stdin_read");
const ans = await ok("pty_send", { id, data: "answer" });
assert.equal(ans.waitReason, "prompt");
assert.match(ans.delta, /got:answer/);

const closed = await ok("pty_close", { id });
assert.equal(closed.closed, true);
await client.close();
console.log(JSON.stringify({ ok: true, openMs, trueMs }));
