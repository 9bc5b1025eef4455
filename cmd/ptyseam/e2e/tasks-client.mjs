// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client,
// on the server's default (text) results, through the everyday tasks a
// model does, each as a model would do them:
// an interactive `git rebase -i` in vi, a Python class and a pdb session,
// a gdb watchpoint, a background http.server fetched from a shell, an
// installer (name, y/N, a menu, a password through pty_secret, YES), an
// ssh login typed in a terminal (when SSH_COMMAND is set), a loop that
// outlives its send, and an interrupt. For each task it asserts at most 2
// bytes a model reads per needed byte and that no result returned output
// an earlier one returned; for the tasks together, at most 2 bytes on the
// wire per needed byte (docs/mcp.md states how the bytes are counted).
// Usage: node tasks-client.mjs PATH_TO_PTYSEAM WORKDIR PORT
// It prints one JSON summary line with each task's figures on success;
// with DEBUG_TASKS set to a file name, each call's bytes and result
// appended to that file.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { bodyOf, bytes, headlineOf, readBytes, noOutputTwiceText, recordText, screenOf, textOf } from "./budget.mjs";

const [bin, workdir, portArg] = process.argv.slice(2);
const port = Number(portArg);
const debug = process.env.DEBUG_TASKS;

// The user: asked to open a secret page, types the password there.
const password = "correct horse";
const client = new Client({ name: "ptyseam-tasks-e2e", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  setTimeout(() => fetch(req.params.url, { method: "POST", body: new URLSearchParams({ secret: password }) }).catch(() => {}), 0);
  return { action: "accept" };
});
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--log-level", "error"], env: { ...process.env }, stderr: "inherit" }));

const given = new Map();
const tasks = {};
const overBudget = [];
// task runs fn(call) and checks its budget: the bytes a model reads at
// most twice the needed bytes, and each of its sessions' output returned
// once. The wire's bytes (each result's JSON) are counted too.
const task = async (name, fn) => {
  const t = { calls: 0, resultBytes: 0, readBytes: 0, neededBytes: 0, perCall: [] };
  const seen = new Map(); // per session and screen kind, the rows received
  const sessions = new Set();
  const call = async (tool, args) => {
    const r = await client.callTool({ name: tool, arguments: args });
    assert.ok(!r.isError, `${name}: ${tool} failed: ${JSON.stringify(r.content)}`);
    assert.equal(r.structuredContent, undefined, `${name}: ${tool}: the default results are text`);
    const sid = args?.id ?? sidOf(r);
    const screen = screenOf(r);
    let need = bodyOf(r).length;
    if (tool.startsWith("pty_")) {
      sessions.add(sid);
      recordText(given, sid, r);
    }
    if (tool === "bg_read") need = bodyOf(r).split("\n").filter(Boolean).reduce((n, l) => n + l.replace(/^\d+ {2}/, "").length + 1, 0);
    if (tool === "bg_launch") need = /: ([^\n]*)$/.exec(bodyOf(r))?.[1].length ?? 0;
    if (screen) {
      // The rows that differ from the same row the model received before.
      need = 0;
      const key = `${sid}/${screen.alt}`;
      const prev = seen.get(key) ?? [];
      for (const [i, row] of screen.rows) {
        if (row !== prev[i]) need += row.length + 1;
        prev[i] = row;
      }
      seen.set(key, prev);
    }
    t.calls++;
    t.resultBytes += bytes(r);
    t.readBytes += readBytes(r);
    t.neededBytes += need;
    t.perCall.push(`${tool} ${readBytes(r)}/${bytes(r)}/${need}`);
    if (debug) appendFileSync(debug, `${name} ${tool} ${JSON.stringify(args)} -> ${bytes(r)} B, needed ${need}: ${JSON.stringify(r.content)}\n`);
    return r;
  };
  await fn(call);
  for (const sid of sessions) {
    await noOutputTwiceText(client, given, sid);
    await client.callTool({ name: "pty_close", arguments: { id: sid } });
  }
  t.ratio = Math.round((t.readBytes / t.neededBytes) * 100) / 100;
  t.wireRatio = Math.round((t.resultBytes / t.neededBytes) * 100) / 100;
  tasks[name] = t;
  if (t.readBytes > 2 * t.neededBytes) overBudget.push(`${name}: ${t.readBytes} bytes read for ${t.neededBytes} needed (per call, read/wire/needed: ${t.perCall.join(", ")})`);
};
// sidOf is the session id a pty_open result names, or a job's id.
const sidOf = (r) => /\b((?:pty|job)_[a-z0-9]+)\b/.exec(headlineOf(r))?.[1];
// rowsOf is the rows of the screen a result shows (none: []).
const rowsOf = (r) => [...(screenOf(r)?.rows.values() ?? [])];
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

// (1) git rebase -i in vi: squash the last commit into the one before.
const repo = join(workdir, "repo");
mkdirSync(repo);
sh("git", ["init", "-q", "-b", "main"], repo);
sh("git", ["config", "user.email", "m@example.com"], repo);
sh("git", ["config", "user.name", "Model"], repo);
sh("git", ["config", "core.editor", "vi"], repo);
for (const n of [1, 2, 3]) {
  writeFileSync(join(repo, "notes.txt"), `line ${n}\n`, { flag: "a" });
  sh("git", ["add", "notes.txt"], repo);
  sh("git", ["commit", "-qm", `commit ${n}`], repo);
}
await task("rebase", async (call) => {
  const id = sidOf(await call("pty_open", { command: "bash", cwd: repo, rows: 24, cols: 80 }));
  const todo = await call("pty_send", { id, data: "git rebase -i HEAD~2" });
  assert.ok(rowsOf(todo).some((r) => /^pick \w+ commit 3/.test(r)), textOf(todo));
  // Second line: pick -> squash, then save; git opens the message.
  const msg = await call("pty_keys", { id, text: "jcwsquash", keys: ["Escape", ":", "w", "q", "Enter"], changedOnly: true });
  assert.ok(rowsOf(msg).some((r) => /combination of 2 commits/.test(r)), textOf(msg));
  const done = await call("pty_keys", { id, text: ":wq", keys: ["Enter"], changedOnly: true });
  assert.ok(rowsOf(done).some((r) => /Successfully rebased/.test(r)), textOf(done));
  const log = await call("pty_send", { id, data: "git log --oneline" });
  assert.match(bodyOf(log), /commit 2\n[^\n]*commit 1\n/);
});

// (2) A Python class in the REPL, then pdb on one of its methods.
await task("python", async (call) => {
  const id = sidOf(await call("pty_open", { command: "python3 -q", cwd: workdir }));
  const cls = "class Account:\n    def __init__(self, balance):\n        self.balance = balance\n    def deposit(self, n):\n        self.balance += n\n        return self.balance\n\n";
  await call("pty_send", { id, data: cls });
  const r = await call("pty_send", { id, data: "Account(40).deposit(2)" });
  assert.match(bodyOf(r), /\n42\n/);
  await call("pty_send", { id, data: "import pdb; pdb.run('Account(1).deposit(5)')" });
  const s = await call("pty_send", { id, data: "s" });
  assert.match(bodyOf(s), /__init__\(\)/);
  const p = await call("pty_send", { id, data: "p balance" });
  assert.match(bodyOf(p), /\n1\n/);
  const end = await call("pty_send", { id, data: "c" });
  assert.match(bodyOf(end), />>> $/);
});

// (3) A gdb watchpoint on a small C program.
writeFileSync(join(workdir, "count.c"), [
  "#include <stdio.h>",
  "int total;",
  "int main(void) {",
  "  for (int i = 1; i <= 3; i++) total += i;",
  '  printf("total %d\\n", total);',
  "  return 0;",
  "}",
  "",
].join("\n"));
sh("gcc", ["-g", "-O0", "-o", "count", "count.c"], workdir);
await task("gdb", async (call) => {
  const id = sidOf(await call("pty_open", { command: "gdb -q ./count", cwd: workdir }));
  await call("pty_send", { id, data: "break main" });
  await call("pty_send", { id, data: "run" });
  // Software watchpoints: a virtual machine may offer no debug registers.
  await call("pty_send", { id, data: "set can-use-hw-watchpoints 0" });
  await call("pty_send", { id, data: "watch total" });
  const w = await call("pty_send", { id, data: "continue" });
  assert.match(bodyOf(w), /Old value = 0\s+New value = 1/);
  const w2 = await call("pty_send", { id, data: "continue" });
  assert.match(bodyOf(w2), /Old value = 1\s+New value = 3/);
  const q = await call("pty_send", { id, data: "kill" });
  assert.match(bodyOf(q), /\(y or n\) $/);
  await call("pty_send", { id, data: "y" });
});

// (4) A background http.server, fetched from a shell.
await task("http", async (call) => {
  const job = await call("bg_launch", { command: "python3", args: ["-m", "http.server", String(port), "--bind", "127.0.0.1"], cwd: workdir, waitFor: { port, timeoutMs: 60000 } });
  assert.match(bodyOf(job), /^ready after \d+ ms: port/, textOf(job));
  const jobId = sidOf(job);
  const id = sidOf(await call("pty_open", { command: "bash", cwd: workdir }));
  const get = await call("pty_send", { id, data: `curl -s http://127.0.0.1:${port}/` });
  assert.match(bodyOf(get), /count\.c/);
  const log = await call("bg_read", { id: jobId, pattern: "GET" });
  assert.match(bodyOf(log), /GET \/ HTTP/);
  await call("bg_stop", { id: jobId });
});

// (5) An installer: a name, a y/N, a menu, a password, YES.
writeFileSync(join(workdir, "install.py"), [
  "import getpass",
  'name = input("Your name: ")',
  'if input("Install to /opt/demo? [y/N] ").lower() != "y": raise SystemExit("aborted")',
  'print("1) minimal\\n2) standard\\n3) full")',
  'choice = input("Choose [1-3]: ")',
  'pw = getpass.getpass("Admin password: ")',
  'if input("Type YES to proceed: ") != "YES": raise SystemExit("aborted")',
  'print(f"installed for {name}: option {choice}, password of {len(pw)} chars")',
  "",
].join("\n"));
await task("installer", async (call) => {
  const id = sidOf(await call("pty_open", { command: "bash", cwd: workdir }));
  let r = await call("pty_send", { id, data: "python3 install.py" });
  assert.match(bodyOf(r), /Your name: $/);
  r = await call("pty_send", { id, data: "Ada" });
  assert.match(bodyOf(r), /\[y\/N\] $/);
  r = await call("pty_send", { id, data: "y" });
  assert.match(bodyOf(r), /2\) standard[\s\S]*Choose \[1-3\]: $/);
  r = await call("pty_send", { id, data: "2" });
  assert.match(bodyOf(r), /Admin password: $/);
  r = await call("pty_secret", { id, message: "The admin password for the installer", timeoutMs: 60000 });
  assert.match(headlineOf(r), /^\[secret entered; waiting for input\]$/, textOf(r));
  assert.match(bodyOf(r), /Type YES to proceed: $/, "pty_secret did not return the next question");
  r = await call("pty_send", { id, data: "YES" });
  assert.match(bodyOf(r), /installed for Ada: option 2, password of 13 chars/);
});

// (6) An ssh login typed in a terminal (the Go test starts a loopback
// sshd and passes the command line).
if (process.env.SSH_COMMAND) {
  await task("ssh", async (call) => {
    const id = sidOf(await call("pty_open", { command: "bash", cwd: workdir }));
    const login = await call("pty_send", { id, data: process.env.SSH_COMMAND });
    assert.match(headlineOf(login), /^\[remote_prompt[;\]]/, textOf(login));
    const r = await call("pty_send", { id, data: "echo $((6 * 7)) $(uname -s)" });
    assert.match(headlineOf(r), /^\[remote_prompt[;\]]/, textOf(r));
    assert.match(bodyOf(r), /\n42 Linux\r?\n/);
    const out = await call("pty_send", { id, data: "exit" });
    assert.match(headlineOf(out), /^\[prompt[;\]]/, textOf(out));
  });
}

// (8) A loop that outlives its send: the send returns early, pty_wait
// waits for its end, pty_tail reads what is left.
await task("loop", async (call) => {
  const id = sidOf(await call("pty_open", { command: "bash", cwd: workdir }));
  const s = await call("pty_send", { id, data: "for i in $(seq 1 8); do echo tick $i; sleep 0.5; done; echo loop-done", timeoutMs: 1000 });
  assert.doesNotMatch(headlineOf(s), /^\[prompt[;\]]/, textOf(s));
  const w = await call("pty_wait", { id, conditions: [{ kind: "output", pattern: "^loop-done$" }], timeoutMs: 60000 });
  assert.match(headlineOf(w), /^\[condition 0 fired/, textOf(w));
  await call("pty_tail", { id });
});

// (9) An interrupt: a long job stopped with SIGINT.
await task("interrupt", async (call) => {
  const id = sidOf(await call("pty_open", { command: "bash", cwd: workdir }));
  const s = await call("pty_send", { id, data: "for i in $(seq 1 100); do echo step $i; sleep 0.2; done", timeoutMs: 1500 });
  assert.doesNotMatch(headlineOf(s), /^\[prompt[;\]]/, textOf(s));
  const sig = await call("pty_signal", { id, signal: "SIGINT" });
  assert.match(headlineOf(sig), /^\[SIGINT delivered/, textOf(sig));
});

await client.close();
if (debug) console.error(JSON.stringify(tasks));
assert.deepEqual(overBudget, [], "tasks over 2 bytes read per needed byte");
const all = Object.values(tasks).reduce((a, t) => ({ result: a.result + t.resultBytes, read: a.read + t.readBytes, needed: a.needed + t.neededBytes }), { result: 0, read: 0, needed: 0 });
assert.ok(all.result <= 2 * all.needed, `all tasks: ${all.result} result bytes on the wire for ${all.needed} needed`);
console.log(JSON.stringify({ ok: true, tasks, all }));
