// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client
// through pty_wait: a dev server's ready line in a terminal session, its
// port, a background build's exit with progress on the way and its output,
// a question, a wait that times out and a bad pattern.
// Usage: node wait-client.mjs PATH_TO_PTYSEAM WORKDIR PORT
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, workdir, portArg] = process.argv.slice(2);
const port = Number(portArg);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-wait-e2e", version: "1.0.0" });
await client.connect(transport);
const text = (r) => r.content.map((c) => c.text).join("");
const call = async (name, args, opts) => {
  const r = await client.callTool({ name, arguments: args }, undefined, opts);
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  return r;
};
const figures = {};

const { tools } = await client.listTools();
const wait = tools.find((t) => t.name === "pty_wait");
assert.ok(wait, "pty_wait is not listed");
assert.match(wait.description, /instead of repeated pty_tail/);

// A dev server in a terminal: the send returns at once, the ready line
// comes a second later. The wait searches from the first line (fromLine 0;
// the echoed command, after the prompt, does not match the anchored
// pattern): a wait for new output only missed the line when a loaded
// machine began it more than that second after the send.
const opened = await call("pty_open", { command: "bash", cwd: workdir });
const id = opened.structuredContent.sessionId;
await call("pty_send", {
  id,
  data: `sleep 1; echo "ready - started server on http://127.0.0.1:${port}"; exec python3 -m http.server ${port} --bind 127.0.0.1`,
  timeoutMs: 300,
  quietMs: 20000,
});
const ready = await call("pty_wait", {
  conditions: [{ kind: "output", target: id, pattern: "^ready - started server on \\S+", fromLine: 0 }],
  timeoutMs: 60000,
});
let r = ready.structuredContent;
assert.equal(r.fired, true);
assert.equal(r.kind, "output");
assert.match(r.line, new RegExp(`127\\.0\\.0\\.1:${port}`));
assert.equal(typeof r.lineNumber, "number");
assert.match(text(ready), /^\[condition 0 fired after \d+ ms(; line \d+)?\]$/);
// The line number is the scrollback's: pty_read finds the line there.
const page = await call("pty_read", { id, start: r.lineNumber, lines: 1 });
assert.equal(page.structuredContent.text.trimEnd(), r.line);
figures.readyResultBytes = JSON.stringify(ready.content).length + JSON.stringify(ready.structuredContent).length;

// Its port.
const listening = await call("pty_wait", { conditions: [{ kind: "port", port }], timeoutMs: 60000 });
assert.equal(listening.structuredContent.fired, true);
assert.equal(listening.structuredContent.port, port);

// A background build: wait for its exit, with progress meanwhile. The
// build ends once the client has had a progress note (it makes the file
// then), not after a sleep: a wait that a loaded machine began after the
// sleep saw the exit at once and no progress.
const gate = `${workdir}/progress-seen`;
const build = await call("bg_launch", {
  command: "sh",
  args: ["-c", `echo compiling; while [ ! -e '${gate}' ]; do sleep 0.05; done; echo build done; exit 0`],
  cwd: workdir,
});
const jobId = build.structuredContent.id;
const notes = [];
const built = await call(
  "pty_wait",
  { conditions: [{ kind: "exit", target: jobId }, { kind: "output", target: id, pattern: "Traceback" }], timeoutMs: 60000 },
  {
    onprogress: (p) => {
      notes.push(p.message);
      writeFileSync(gate, "");
    },
  },
);
r = built.structuredContent;
assert.equal(r.fired, true);
assert.equal(r.condition, 0);
assert.equal(r.kind, "exit");
assert.deepEqual(r.status, { kind: "exited", exitCode: 0 });
assert.ok(notes.length >= 1, "no progress while waiting");
assert.match(notes[0], /^waiting \d+ s/);
figures.progressNotes = notes.length;

// The job's own output, from its first line (fromLine): the wait began
// after the line was printed.
const compiled = await call("pty_wait", { conditions: [{ kind: "output", target: jobId, pattern: "^build done$", fromLine: 0 }], timeoutMs: 60000 });
assert.equal(compiled.structuredContent.line, "build done");
assert.equal(compiled.structuredContent.lineNumber, 1);

// A program that asks a question.
const q = (await call("pty_open", { command: "bash", cwd: workdir })).structuredContent.sessionId;
await call("pty_send", { id: q, data: 'sleep 1; read -p "Overwrite config? [y/N] " ans; echo got-$ans', timeoutMs: 300, quietMs: 20000 });
const asked = await call("pty_wait", { conditions: [{ kind: "input", target: q }, { kind: "exit", target: q }], timeoutMs: 60000 });
assert.equal(asked.structuredContent.kind, "input");
assert.match(asked.structuredContent.line, /^Overwrite config\? \[y\/N\]/);
const answered = await call("pty_send", { id: q, data: "y" });
assert.match(answered.structuredContent.delta, /got-y/);
await call("pty_close", { id: q });

// Nothing holds: fired false, and the programs keep running.
const none = await call("pty_wait", { conditions: [{ kind: "output", target: id, pattern: "never printed" }], timeoutMs: 500 });
assert.equal(none.structuredContent.fired, false);
assert.equal(none.structuredContent.condition, -1);
assert.match(text(none), /^\[timeout after/);

// A bad pattern is a typed error naming the field.
const bad = await client.callTool({ name: "pty_wait", arguments: { conditions: [{ kind: "output", target: id, pattern: "(" }] } });
assert.ok(bad.isError);
assert.equal(bad._meta.code, "INVALID_ARGUMENT");
assert.match(text(bad), /conditions\[0\]\.pattern/);

await call("pty_close", { id });
await client.close();
console.log(JSON.stringify({ ok: true, figures }));
