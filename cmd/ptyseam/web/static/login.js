// The sign-in page: sends the typed token, or the code of the one-time
// link that opened the page, and keeps the key the server answers in this
// tab's sessionStorage. Every call of the watch page sends that key with
// the sign-in cookie: a page on another port of this host gets the cookie
// (browsers send a host's cookies to all its ports) but never the key,
// which stays with this origin.
"use strict";

const KEY = "ptyseam.watch.key";
const $ = (id) => document.getElementById(id);

async function signIn(fields) {
  $("error").textContent = "";
  let r;
  try {
    r = await fetch("/watch/login", { method: "POST", body: new URLSearchParams(fields), cache: "no-store" });
  } catch (e) {
    $("error").textContent = "the server is unreachable";
    return;
  }
  if (!r.ok) {
    $("error").textContent = (await r.text()).trim() || "sign-in refused (" + r.status + ")";
    return;
  }
  const { key } = await r.json();
  sessionStorage.setItem(KEY, key);
  location.replace("/watch/");
}

$("signin").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const token = $("token").value;
  $("token").value = "";
  signIn({ token });
});

const once = new URLSearchParams(location.search).get("once");
if (once) {
  history.replaceState(null, "", "/watch/login"); // the code is spent: keep it out of the history
  signIn({ once });
}
