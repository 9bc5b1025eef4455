// What the model-task clients share: how a result's bytes are counted,
// which line-mode output each result returned, and the check that no
// result returned output an earlier one returned (docs/mcp.md states the
// method).
import assert from "node:assert/strict";

// bytes is what a client holds of a result: its content and its
// structured content, as JSON.
export const bytes = (r) => JSON.stringify(r.content).length + (r.structuredContent ? JSON.stringify(r.structuredContent).length : 0);

// streamOf returns the line-mode output a result of tool name returned.
export const streamOf = (name, sc) => {
  switch (name) {
    case "pty_tail":
      return sc.text;
    case "pty_read":
      return undefined;
    case "pty_wait":
    case "pty_secret":
      return sc.output;
    default:
      return sc.initialOutput ?? sc.delta ?? sc.output;
  }
};

// record adds a result's line-mode output to given, per session, in order.
export const record = (given, name, args, sc) => {
  const sid = args?.id ?? sc?.sessionId ?? sc?.target;
  const out = sc && sid ? streamOf(name, sc) : undefined;
  if (out) given.set(sid, [...(given.get(sid) ?? []), out]);
};

// noOutputTwice checks that no result returned output an earlier one
// returned: the lines of every result's line-mode output (cut markers
// aside) are found in the session's scrollback in order, each after the
// lines of the results before it. It pages the scrollback with pty_read
// and returns its size in bytes.
export const noOutputTwice = async (client, given, sid) => {
  const lines = [];
  for (let start = 0; ; ) {
    const page = (await client.callTool({ name: "pty_read", arguments: { id: sid, start, lines: 1000 } })).structuredContent;
    lines.push(...page.text.split("\n").slice(0, page.lines));
    if (page.lines === 0 || page.end >= page.total) break;
    start = page.end;
  }
  let at = 0;
  for (const out of given.get(sid) ?? []) {
    const segs = out.split("\n");
    if (!out.endsWith("\n")) segs.pop(); // an unfinished line: its end comes later
    for (const [k, seg] of segs.entries()) {
      const line = seg.trimEnd(); // the scrollback keeps no trailing blanks
      if (line === "" || /^\[\.\.\. lines? [\d-]+ cut/.test(line)) continue;
      // The first may end a line an earlier result began (a prompt).
      const i = lines.findIndex((l, j) => j >= at && (k === 0 ? l.endsWith(line) : l === line));
      assert.ok(i >= 0, `${sid}: output returned twice, or not in order: ${JSON.stringify(line)} (scrollback line ${at} on)`);
      at = i + 1;
    }
  }
  return lines.reduce((n, l) => n + l.length + 1, 0);
};
