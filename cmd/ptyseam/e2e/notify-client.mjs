// A background job's exit notice reaches the official TypeScript MCP
// client as a logging notification, without polling.
// Usage: node notify-client.mjs PATH_TO_PTYSEAM
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const bin = process.argv[2];
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-e2e-notify", version: "1.0.0" });
const notices = [];
let noticed;
const gotNotice = new Promise((resolve) => { noticed = resolve; });
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
  notices.push(n.params);
  if (n.params.logger === "ptyseam.jobs") noticed(n.params);
});
await client.connect(transport);
await client.setLoggingLevel("info");

const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
};

// A quiet job, and one that notifies when it ends.
const quiet = await call("bg_launch", { command: "sh", args: ["-c", "exit 0"] });
const job = await call("bg_launch", { command: "sh", args: ["-c", "echo done; sleep 0.3; exit 3"], notifyOnExit: true });
assert.equal(job.notifyOnExit, true);
const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no exit notice within 60 s")), 60000));
const notice = await Promise.race([gotNotice, timeout]);
assert.equal(notice.level, "notice");
assert.equal(notice.data.jobId, job.id);
assert.equal(notice.data.exitCode, 3);
assert.equal(notice.data.signal, null);
assert.match(notice.data.message, /bg_read/);
// Only the job that asked for it sent a notice.
assert.ok(!notices.some((n) => n.data && n.data.jobId === quiet.id), "the quiet job sent a notice");

await client.close();
console.log(JSON.stringify({ ok: true, notice: notice.data.message }));
