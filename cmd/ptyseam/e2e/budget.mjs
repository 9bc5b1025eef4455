// What the model-task clients share: how a result's bytes are counted,
// which line-mode output each result returned, and the check that no
// result returned output an earlier one returned (docs/mcp.md states the
// method).
import assert from "node:assert/strict";

// bytes is what a client holds of a result: its content and its
// structured content, as JSON (the wire's count).
export const bytes = (r) => JSON.stringify(r.content).length + (r.structuredContent ? JSON.stringify(r.structuredContent).length : 0);

// readBytes is what a model reads of a text result: its text, which a host
// hands the model without the JSON around it.
export const readBytes = (r) => textOf(r).length;

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
  checkOrder(given, sid, lines);
  return lines.reduce((n, l) => n + l.length + 1, 0);
};

// The text form (the server's default): a result's text is its headline
// line, then its output or its screen.

// textOf is a result's text.
export const textOf = (r) => r.content.map((c) => c.text ?? "").join("");

// headlineOf is the first line of a result's text ("[prompt; ...]").
export const headlineOf = (r) => textOf(r).split("\n", 1)[0];

// bodyOf is what follows the headline: the output ("(no output)" is
// none), or a screen.
export const bodyOf = (r) => {
  const t = textOf(r);
  const i = t.indexOf("\n");
  const body = i < 0 ? "" : t.slice(i + 1);
  return body === "(no output)" || body === "(no output followed)" ? "" : body;
};

// screenOf parses a screen a result's text shows ("screen 24x80, cursor
// row 3 col 0, alternate screen[, changed rows only]", then one "NN |row"
// line a row, ">" marking the cursor's): its alt flag and its rows by
// number, or undefined when the text shows no screen.
export const screenOf = (r) => {
  const lines = bodyOf(r).split("\n");
  if (!/^screen \d+x\d+, cursor row \d+ col \d+/.test(lines[0] ?? "")) return undefined;
  const rows = new Map();
  for (const l of lines.slice(1)) {
    const m = /^\s*(\d+)[ >]\|(.*)$/.exec(l);
    if (m) rows.set(Number(m[1]), m[2]);
  }
  return { alt: lines[0].includes("alternate screen"), rows };
};

// recordText adds a text-form result's line-mode output to given, per
// session, in order (a screen is no line-mode output).
export const recordText = (given, sid, r) => {
  const out = bodyOf(r);
  if (sid && out && !screenOf(r)) given.set(sid, [...(given.get(sid) ?? []), out]);
};

// noOutputTwiceText is noOutputTwice against a server serving text
// results: it pages the scrollback with pty_read's text ("[lines 0-9 of
// 40; page on from 10]", then the lines).
export const noOutputTwiceText = async (client, given, sid) => {
  const lines = [];
  for (let start = 0; ; ) {
    const r = await client.callTool({ name: "pty_read", arguments: { id: sid, start, lines: 1000 } });
    const m = /^\[lines (\d+)-(\d+) of (\d+)/.exec(headlineOf(r));
    if (!m) break;
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    lines.push(...bodyOf(r).split("\n").slice(0, last - first + 1));
    if (last + 1 >= total) break;
    start = last + 1;
  }
  checkOrder(given, sid, lines);
  return lines.reduce((n, l) => n + l.length + 1, 0);
};

// checkOrder asserts that the lines of every output given holds for sid
// are found in lines (the session's scrollback) in order, each after the
// lines of the outputs before it (cut markers aside; an unfinished last
// line is matched when it is complete).
const checkOrder = (given, sid, lines) => {
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
};
