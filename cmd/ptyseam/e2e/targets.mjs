// What the clients of configured targets (--remote-hosts, --k8s-targets)
// share: a stdio connection to `ptyseam mcp` with a targets flag, the
// call helpers, and the check that pty_open's schema lists the target.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

// connectWithTargets starts `BIN mcp FLAG FILE`, connects a client called
// name, checks that pty_open offers target, and returns the client with
// call (the raw result) and ok (the structured content of a result that
// must not be an error).
export const connectWithTargets = async (bin, flag, file, name, target) => {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "--structured-results", "--log-level", "error", flag, file],
    env: { ...process.env },
    stderr: "inherit",
  });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  const call = (tool, args) => client.callTool({ name: tool, arguments: args });
  const ok = async (tool, args) => {
    const r = await call(tool, args);
    assert.ok(!r.isError, `${tool} failed: ${JSON.stringify(r.content)}`);
    return r.structuredContent;
  };
  const { tools } = await client.listTools();
  const open = tools.find((t) => t.name === "pty_open");
  assert.ok(open.inputSchema.properties.target.enum.includes(target), JSON.stringify(open.inputSchema.properties.target));
  return { client, call, ok };
};
