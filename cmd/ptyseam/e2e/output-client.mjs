// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client
// through output that must be cut and searched: a build log too long for
// one result keeps its head, its newest lines and its error line, says
// which line ranges it left out, and pty_search finds the error (in a
// terminal and in a background job) by line number; pty_wait waits for a
// full-screen program's screen to show a row, and for a job's question.
// Usage: node output-client.mjs PATH_TO_PTYSEAM WORKDIR
// It asserts as it goes and prints one JSON summary line on success.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, workdir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error", "--tools", "full", "--result-bytes", "8192"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-output-e2e", version: "1.0.0" });
await client.connect(transport);
const text = (r) => r.content.map((c) => c.text).join("");
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  return r;
};
const figures = {};

const { tools } = await client.listTools();
const search = tools.find((t) => t.name === "pty_search");
assert.ok(search, "pty_search is not listed");
assert.match(search.description, /line numbers/);

// A build log of 6,001 lines (about 130 KB) with one compiler error in
// the middle: the delta is cut to 8 KB but keeps the error.
const opened = await call("pty_open", { command: "bash", cwd: workdir });
const id = opened.structuredContent.sessionId;
const log = "seq -f 'compiling unit %g of the project' 1 3000; echo 'main.go:12:5: undefined: frobnicate'; seq -f 'compiling unit %g of the project' 3001 6000";
const built = await call("pty_send", { id, data: log });
let r = built.structuredContent;
assert.equal(r.waitReason, "prompt");
assert.equal(r.truncated, true);
assert.ok(r.delta.length <= 8192, `delta of ${r.delta.length} bytes`);
assert.match(r.delta, /^[^\n]*seq -f/, "the head (the command line) is kept");
assert.match(r.delta, /\ncompiling unit 1 of the project\n/);
assert.match(r.delta, /\nmain\.go:12:5: undefined: frobnicate\n/);
assert.match(r.delta, /\ncompiling unit 6000 of the project\n/);
assert.ok(Array.isArray(r.cut) && r.cut.length === 2, `cut ${JSON.stringify(r.cut)}`);
let sum = 0;
for (const c of r.cut) {
  sum += c.to - c.from + 1;
  assert.ok(r.delta.includes(`[... lines ${c.from}-${c.to} cut (${c.to - c.from + 1} lines) ...]\n`), `no marker for ${c.from}-${c.to}`);
}
assert.equal(r.skipped, sum);
// The error's line number is the one after the first range.
const errLine = r.cut[0].to + 1;
assert.match(text(built), /lines cut \(lines \d+-\d+, \d+-\d+; pty_read pages them\)/);
figures.deltaBytes = r.delta.length;
figures.linesCut = sum;

// pty_read pages a cut range: its first line follows the head.
const page = await call("pty_read", { id, start: r.cut[0].from, lines: 2 });
assert.match(page.structuredContent.text, /^compiling unit \d+ of the project\ncompiling unit \d+ of the project\n$/);
const errPage = await call("pty_read", { id, start: errLine, lines: 1 });
assert.equal(errPage.structuredContent.text, "main.go:12:5: undefined: frobnicate\n");

// pty_search finds it too, with the same line number, and pages.
const found = await call("pty_search", { id, pattern: "^\\S+:\\d+:\\d+: undefined" });
r = found.structuredContent;
assert.deepEqual(r.matches, [{ line: errLine, text: "main.go:12:5: undefined: frobnicate" }]);
assert.ok(!r.more);
assert.ok(text(found).startsWith(`[1 line matching "^\\\\S+:\\\\d+:\\\\d+: undefined"; searched to the end (next `), text(found));
// The text is the headline; the matches are in the structured content.
let paged = 0;
let from = 0;
for (let i = 0; i < 10; i++) {
  const p = (await call("pty_search", { id, pattern: "UNIT 59\\d\\d OF", ignoreCase: true, from, limit: 40 })).structuredContent;
  paged += p.matches.length;
  from = p.next;
  if (!p.more) break;
}
assert.equal(paged, 100);
// A bad pattern is a clear error (RE2: no backreferences).
const bad = await client.callTool({ name: "pty_search", arguments: { id, pattern: "(a)\\1" } });
assert.ok(bad.isError);
assert.match(text(bad), /INVALID_ARGUMENT/);
assert.match(text(bad), /pattern/);

// A background job's output is searched the same way.
const job = await call("bg_launch", {
  command: "sh",
  args: ["-c", "seq 1 500; echo 'Traceback (most recent call last):'; echo 'ValueError: bad input'; seq 501 700"],
  cwd: workdir,
});
const jobId = job.structuredContent.id;
await call("pty_wait", { conditions: [{ kind: "exit", target: jobId }], timeoutMs: 60000 });
const jobFound = (await call("pty_search", { id: jobId, pattern: "^(Traceback|\\w+Error:)" })).structuredContent;
assert.deepEqual(jobFound.matches.map((m) => m.text), ["Traceback (most recent call last):", "ValueError: bad input"]);
assert.equal(jobFound.matches[1].line, jobFound.matches[0].line + 1);

// A full-screen program draws its status row a second after the send
// returned: pty_wait kind screen returns the row.
await call("pty_send", {
  id,
  data: "printf '\\033[?1049h\\033[2J\\033[H'; sleep 1; printf '\\033[5;1Hstatus: READY'; sleep 60",
  timeoutMs: 300,
});
const drawn = await call("pty_wait", { conditions: [{ kind: "screen", target: id, pattern: "status: \\w+" }], timeoutMs: 60000 });
r = drawn.structuredContent;
assert.equal(r.fired, true);
assert.equal(r.kind, "screen");
assert.equal(r.row, 4);
assert.equal(r.line, "status: READY");
assert.match(text(drawn), /^\[condition 0 fired after \d+ ms\]$/);
// A job on a pseudo-terminal that asks a question: pty_wait kind input
// returns the question; a pipe job cannot tell and is refused.
const asking = await call("bg_launch", { command: "sh", args: ["-c", "sleep 1; printf 'Deploy to production? [y/N] '; read a; echo answered $a"], cwd: workdir });
const askingId = asking.structuredContent.id;
const asked = await call("pty_wait", { conditions: [{ kind: "input", target: askingId }, { kind: "exit", target: askingId }], timeoutMs: 60000 });
assert.equal(asked.structuredContent.kind, "input");
assert.equal(asked.structuredContent.line, "Deploy to production? [y/N] ");
await call("bg_stop", { id: askingId });
const piped = await call("bg_launch", { command: "sh", args: ["-c", "read a"], cwd: workdir, backend: "pipe" });
const pipeWait = await client.callTool({ name: "pty_wait", arguments: { conditions: [{ kind: "input", target: piped.structuredContent.id }] } });
assert.ok(pipeWait.isError);
assert.match(text(pipeWait), /cannot tell when its program waits for input/);
await call("bg_stop", { id: piped.structuredContent.id });
// A job has no screen: the wait says so plainly.
const noScreen = await client.callTool({ name: "pty_wait", arguments: { conditions: [{ kind: "screen", target: jobId }] } });
assert.ok(noScreen.isError);
assert.match(text(noScreen), /has no screen/);

await call("pty_close", { id });
await client.close();
console.log(JSON.stringify({ ok: true, figures }));
