// The watch page: lists the server's sessions and shows one live. Every
// string from the server is rendered with textContent, never as HTML.
// Every call sends the key the sign-in page kept in this tab's
// sessionStorage (login.js): the sign-in cookie alone opens nothing.
"use strict";

const hasXterm = typeof Terminal !== "undefined";
const $ = (id) => document.getElementById(id);
let current = null; // {id, ws, term, inControl}

const KEY = "ptyseam.watch.key";
const key = sessionStorage.getItem(KEY);
if (!key) location.replace("/watch/login");

// api fetches a call of the server with the tab's key; a refusal sends
// the tab to the sign-in page.
async function api(path) {
  const r = await fetch(path, { cache: "no-store", headers: { "X-Ptyseam-Watch-Key": key || "" } });
  if (r.status === 401) {
    sessionStorage.removeItem(KEY);
    location.replace("/watch/login");
    throw new Error("signed out");
  }
  return r;
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function age(sec) {
  if (sec < 60) return sec + "s";
  if (sec < 3600) return Math.floor(sec / 60) + "m";
  return Math.floor(sec / 3600) + "h" + Math.floor((sec % 3600) / 60) + "m";
}

async function refresh() {
  let data;
  try {
    data = await (await api("/watch/api/sessions")).json();
  } catch (e) {
    $("conn").textContent = "server unreachable";
    return;
  }
  $("conn").textContent = "connected";
  $("recordings").hidden = !data.recording;
  if (data.recording) refreshRecordings();
  $("noxterm").hidden = hasXterm;
  const owners = new Map();
  for (const s of data.sessions || []) {
    if (!owners.has(s.owner)) owners.set(s.owner, []);
    owners.get(s.owner).push(s);
  }
  const box = $("owners");
  box.replaceChildren();
  if (owners.size === 0) box.append(el("p", "No sessions yet.", "empty"));
  for (const [owner, list] of owners) {
    box.append(el("h3", "owner " + owner));
    const t = el("table");
    const head = el("tr");
    for (const h of ["session", "kind", "command", "status", "last wait", "age", "control"]) head.append(el("th", h));
    t.append(head);
    for (const s of list) {
      const tr = el("tr", undefined, "session");
      tr.dataset.id = s.id;
      if (current && current.id === s.id) tr.classList.add("open");
      tr.append(el("td", s.modelId || s.id), el("td", s.kind), el("td", (s.command || []).join(" ") || "(shell)", "cmd"),
        el("td", s.status), el("td", s.lastWait || "-"), el("td", age(s.ageSec)), el("td", s.controller || "model"));
      tr.addEventListener("click", () => open(s.id));
      t.append(tr);
    }
    box.append(t);
  }
}

let player = null;

async function refreshRecordings() {
  let data;
  try {
    data = await (await api("/watch/api/recordings")).json();
  } catch (e) {
    return;
  }
  $("noplayer").hidden = data.player && typeof AsciinemaPlayer !== "undefined";
  const ul = $("recording-list");
  ul.replaceChildren();
  for (const r of data.recordings || []) {
    const li = el("li");
    const b = el("button", r.name, "recording");
    b.type = "button";
    b.dataset.name = r.name;
    b.addEventListener("click", () => replay(r.name));
    li.append(b, el("span", " " + Math.ceil(r.bytes / 1024) + " KiB"));
    ul.append(li);
  }
}

function replay(name) {
  if (typeof AsciinemaPlayer === "undefined") return;
  if (player) { player.dispose(); player = null; }
  $("replay-box").hidden = false;
  $("replay-name").textContent = "replay " + name;
  const src = { url: "/watch/recordings/" + encodeURIComponent(name), fetchOpts: { headers: { "X-Ptyseam-Watch-Key": key || "" } } };
  player = AsciinemaPlayer.create(src, $("replay"), { autoPlay: true, speed: 4, idleTimeLimit: 1, fit: false });
}

function closeViewer() {
  if (!current) return;
  current.closing = true;
  current.ws.close();
  if (current.term) current.term.dispose();
  current = null;
  $("viewer").hidden = true;
  $("viewer").classList.remove("control");
}

function open(id) {
  closeViewer();
  $("viewer").hidden = false;
  $("viewer-id").textContent = id;
  $("viewer-note").textContent = "";
  $("plain").textContent = "";
  $("plain").hidden = hasXterm;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // A browser's WebSocket carries no headers: the key goes as a
  // subprotocol offered next to the page's own, which the server picks.
  const ws = new WebSocket(proto + "//" + location.host + "/watch/ws?id=" + encodeURIComponent(id), ["ptyseam.watch", "ptyseam.key." + key]);
  ws.binaryType = "arraybuffer";
  const cur = { id, ws, term: null, inControl: false, decoder: new TextDecoder() };
  current = cur;
  if (hasXterm) {
    cur.term = new Terminal({ disableStdin: false, convertEol: false, scrollback: 5000, fontSize: 13 });
    cur.term.open($("term"));
    cur.term.onData((d) => {
      if (cur.inControl) ws.send(JSON.stringify({ type: "input", data: d }));
    });
  }
  ws.onmessage = (ev) => {
    if (typeof ev.data !== "string") {
      const bytes = new Uint8Array(ev.data);
      if (cur.term) cur.term.write(bytes);
      else $("plain").textContent += cur.decoder.decode(bytes, { stream: true });
      return;
    }
    const m = JSON.parse(ev.data);
    if (m.type === "state") showState(cur, m);
    if (m.type === "end") $("viewer-note").textContent = "stopped: " + m.reason;
  };
  ws.onclose = () => {
    if (!cur.closing) $("viewer-state").textContent += " (disconnected)";
    cur.inControl = false;
    $("take").hidden = true;
    $("handback").hidden = true;
  };
  refresh();
}

function showState(cur, m) {
  if (cur.term && m.cols > 0 && m.rows > 0 && (cur.term.cols !== m.cols || cur.term.rows !== m.rows)) {
    cur.term.resize(m.cols, m.rows);
  }
  cur.inControl = m.you;
  const who = m.you ? "you are in control: type into the terminal" : (m.controller ? m.controller + " is in control" : "the model is in control");
  $("viewer-state").textContent = m.status + " · last wait: " + (m.lastWait || "-") + " · " + who + (m.ended ? " · output ended" : "");
  $("take").hidden = m.you || m.readOnly || !!m.controller || m.ended;
  $("handback").hidden = !m.you;
  $("viewer").classList.toggle("control", m.you);
  $("viewer-note").textContent = m.error || "";
  if (m.you && cur.term) cur.term.focus();
}

$("take").addEventListener("click", () => current && current.ws.send(JSON.stringify({ type: "take" })));
$("handback").addEventListener("click", () => current && current.ws.send(JSON.stringify({ type: "handback" })));
$("close-viewer").addEventListener("click", closeViewer);
$("close-replay").addEventListener("click", () => {
  if (player) { player.dispose(); player = null; }
  $("replay-box").hidden = true;
});
refresh();
setInterval(refresh, 2000);
