// Drives `ptyseam mcp` over stdio with the official TypeScript MCP client
// through what a model meets in a shell: a multi-line send (a heredoc, a
// compile, a crashing program and its exit status) and the interactive
// traps (history expansion, pagers, exit codes of rejected lines).
// Usage: node model-shell-client.mjs PATH_TO_PTYSEAM WORKDIR
// It asserts as it goes and prints one JSON summary line on success, with
// the result bytes of the multi-line send.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, workdir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--structured-results", "--log-level", "error"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ptyseam-e2e-model-shell", version: "1.0.0" });
await client.connect(transport);

const ok = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, `${name} returned no structured content`);
  return r;
};

const opened = (await ok("pty_open", { command: "bash" })).structuredContent;
const id = opened.sessionId;
await ok("pty_send", { id, data: `cd '${workdir}'` });

// One send: a heredoc, a compile, a crash, the status. It returns once the
// shell has read and run every line, with all of the output.
const script = [
  "cat > crash.c <<'EOF'",
  "#include <stdio.h>",
  "int main(void) {",
  "    int *p = 0;",
  '    printf("about to crash\\n");',
  "    fflush(stdout);",
  "    return *p;",
  "}",
  "EOF",
  "gcc -O0 -o crash crash.c && ./crash; echo exit=$?",
].join("\n");
let multi, m;
for (let i = 0; i < 3; i++) {
  multi = await ok("pty_send", { id, data: script });
  m = multi.structuredContent;
  assert.equal(m.waitReason, "prompt", `multi-line send settled as ${m.waitReason}: ${m.delta}`);
  assert.match(m.delta, /about to crash/, `try ${i}: ${m.delta}`);
  assert.match(m.delta, /Segmentation fault/);
  assert.match(m.delta, /exit=139/);
  assert.equal(m.exitCode, 0, "the last command's exit code (echo)");
}
const multiBytes = JSON.stringify(multi.content).length + JSON.stringify(multi.structuredContent).length;

// History expansion is off: "!" is literal.
const bang = (await ok("pty_send", { id, data: `printf 'keep\\n!found\\n' | sed '/!found/d'; echo "x!y"` })).structuredContent;
assert.equal(bang.waitReason, "prompt");
assert.doesNotMatch(bang.delta, /event not found/);
assert.match(bang.delta, /keep\r?\n/);
assert.doesNotMatch(bang.delta, /^!found/m);
assert.match(bang.delta, /x!y/);
assert.equal(bang.exitCode, 0);

// Pagers never wait for a key; TERM suits the emulator.
const env = (await ok("pty_send", { id, data: 'echo "pagers:$PAGER:$GIT_PAGER:$SYSTEMD_PAGER:$MANPAGER:$TERM"' })).structuredContent;
assert.match(env.delta, /pagers:cat:cat:cat:cat:xterm-256color/);

// Every prompt after a command carries its exit code, a rejected line's too.
const bad = (await ok("pty_send", { id, data: "if then fi" })).structuredContent;
assert.equal(bad.waitReason, "prompt");
assert.equal(bad.exitCode, 2, `syntax error: ${JSON.stringify(bad)}`);
const notFound = (await ok("pty_send", { id, data: "no-such-command-ptyseam" })).structuredContent;
assert.equal(notFound.exitCode, 127);
const fail = (await ok("pty_send", { id, data: "false" })).structuredContent;
assert.equal(fail.exitCode, 1);

// The tool description says so.
const { tools } = await client.listTools();
const open = tools.find((t) => t.name === "pty_open");
assert.match(open.description, /history expansion is off/);
assert.match(open.description, /PAGER/);

await ok("pty_close", { id });
await client.close();
console.log(JSON.stringify({ ok: true, multiLineResultBytes: multiBytes, multiLineDeltaBytes: m.delta.length }));
