// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client
// through pty_secret: a password prompt (read -s) is answered by the user
// on the one-time page the client is asked to open (URL-mode
// elicitation); the test harness plays the user with headless Chromium.
// Also: a prompt that echoes is refused, the shell's own read (a model
// phishing the secret: read -rs PW; echo leak:$PW) is refused before the
// user is asked, a program that prints the secret shows [secret], a
// declined elicitation types nothing, and a client without elicitation
// gets a one-time link to hand to its user (the harness opens it too).
// Usage: node secret-client.mjs PATH_TO_PTYSEAM WORKDIR EXPECTED_SHA12
// It prints "OPEN <url>" when the user should open a page (the Go test
// then types the secret there), "RESULT <json>" for every tool result,
// and one JSON summary line on success.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [bin, workdir, sha12] = process.argv.slice(2);
const text = (r) => r.content.map((c) => c.text).join("");
const record = (name, r) => console.log("RESULT " + JSON.stringify({ name, r }));
const figures = {};
// A program that asks for a password and prints it back (a leak the
// session must hide) with its length and hash.
const ask = join(workdir, "ask.py");
writeFileSync(ask, [
  "import getpass, hashlib",
  "pw = getpass.getpass('Password: ')",
  "print('leak:' + pw)",
  "print('got %d chars sha %s' % (len(pw), hashlib.sha256(pw.encode()).hexdigest()[:12]))",
  "",
].join("\n"));

// The user's client: it supports URL-mode elicitation. The first request
// is accepted (the page is opened), the second declined.
const client = new Client({ name: "ptyseam-secret-e2e", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
const asked = [];
let completed = 0;
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked.push(req.params);
  assert.equal(req.params.mode, "url");
  assert.match(req.params.url, /^http:\/\/127\.0\.0\.1:\d+\/secret\/[0-9a-f]{64}$/);
  if (asked.length === 1) {
    console.log("OPEN " + req.params.url);
    return { action: "accept" };
  }
  return { action: "decline" };
});
client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => {
  completed++;
});
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--structured-results", "--log-level", "debug"], env: { ...process.env }, stderr: "inherit" }));
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  record(name, r);
  return r;
};
const ok = async (name, args) => {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  return r;
};
const { tools } = await client.listTools();
assert.ok(tools.some((t) => t.name === "pty_secret"), "pty_secret is not listed");

const id = (await ok("pty_open", { command: "bash", cwd: workdir })).structuredContent.sessionId;
// A question that echoes is not a secret prompt.
let r = await ok("pty_send", { id, data: 'read -r -p "Name: " name; echo "hello $name"' });
assert.equal(r.structuredContent.waitReason, "stdin_read");
r = await call("pty_secret", { id, message: "your name" });
assert.ok(r.isError);
assert.match(text(r), /INVALID_ARGUMENT/);
assert.match(text(r), /echo is on/);
await ok("pty_send", { id, data: "world" });

// The shell's own read: the model would read back what it got.
r = await ok("pty_send", { id, data: `read -rs -p "Password: " pw; echo "leak:$pw"` });
assert.equal(r.structuredContent.waitReason, "stdin_read");
r = await call("pty_secret", { id, message: "sudo password for deploy" });
assert.ok(r.isError);
assert.match(text(r), /is a shell/);
assert.equal(asked.length, 0, "the user was asked for a refused prompt");
await ok("pty_signal", { id, signal: "SIGINT" });

// The password prompt of a program: the user types the secret on the page.
r = await ok("pty_send", { id, data: `python3 ${ask}` });
assert.equal(r.structuredContent.waitReason, "stdin_read");
assert.match(r.structuredContent.delta, /Password: $/);
r = await ok("pty_secret", { id, message: "The password for the test account", timeoutMs: 60000 });
assert.equal(r.structuredContent.outcome, "entered");
assert.match(text(r), /^\[secret entered; waiting for input\]$/);
// The call waited for the program to take the secret: its answer came with it.
assert.match(r.structuredContent.output ?? "", /^got \d+ chars sha [0-9a-f]{12}/m, JSON.stringify(r.structuredContent));
assert.equal(asked.length, 1);
assert.equal(asked[0].message, "The password for the test account");
// From the session's first line (fromLine 0): the program may have printed
// its answer before pty_secret returned. Only that answer starts with "got".
r = await ok("pty_wait", { conditions: [{ kind: "output", target: id, pattern: "^got \\d+ chars sha [0-9a-f]{12}", fromLine: 0 }], timeoutMs: 60000 });
assert.match(r.structuredContent.line, new RegExp(`sha ${sha12}$`), "the terminal did not get the secret");
await ok("pty_tail", { id });
r = await ok("pty_read", { id, start: 0, lines: 200 });
assert.ok(r.structuredContent.text.includes("leak:[secret]"), "the program's print of the secret is not hidden");

// A second prompt, declined: nothing is typed.
// The send settles on the read (echo off, as pty_secret requires), not on
// a 5 s deadline a loaded machine can reach first.
r = await ok("pty_send", { id, data: `python3 ${ask}` });
assert.equal(r.structuredContent.waitReason, "stdin_read");
r = await ok("pty_secret", { id, message: "A passphrase" });
assert.deepEqual(r.structuredContent, { outcome: "refused" });
assert.equal(asked.length, 2);
const st = await ok("pty_tail", { id });
assert.doesNotMatch(st.structuredContent.text, /got/);
await ok("pty_signal", { id, signal: "SIGINT" });
figures.completeNotices = completed;
await ok("pty_close", { id });
await client.close();

// A client without elicitation gets a one-time link for its user.
const plain = new Client({ name: "ptyseam-secret-plain", version: "1.0.0" });
await plain.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--structured-results", "--log-level", "debug"], env: { ...process.env }, stderr: "inherit" }));
const listed = (await plain.listTools()).tools.find((t) => t.name === "pty_secret");
assert.match(listed.description, /Any client/, "the tool list does not say what the client needs");
const pcall = async (name, args) => {
  const r = await plain.callTool({ name, arguments: args });
  record(name, r);
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  return r;
};
const pid = (await pcall("pty_open", { command: "bash", cwd: workdir })).structuredContent.sessionId;
await pcall("pty_send", { id: pid, data: `python3 ${ask}` });
r = await pcall("pty_secret", { id: pid, message: "a password", timeoutMs: 60000 });
assert.equal(r.structuredContent.outcome, "link");
assert.match(r.structuredContent.url, /^http:\/\/127\.0\.0\.1:\d+\/secret\/[0-9a-f]{64}$/);
assert.ok(text(r).includes(r.structuredContent.url), "the text does not carry the link");
console.log("OPEN " + r.structuredContent.url); // the model hands it to its user
r = await pcall("pty_wait", { conditions: [{ kind: "output", target: pid, pattern: "^got \\d+ chars sha [0-9a-f]{12}", fromLine: 0 }], timeoutMs: 60000 });
assert.match(r.structuredContent.line, new RegExp(`sha ${sha12}$`), "the terminal did not get the secret through the link");
r = await pcall("pty_read", { id: pid, start: 0, lines: 200 });
assert.ok(r.structuredContent.text.includes("leak:[secret]"), "the program's print of the secret is not hidden");
await pcall("pty_close", { id: pid });
await plain.close();

console.log(JSON.stringify({ ok: true, figures }));
