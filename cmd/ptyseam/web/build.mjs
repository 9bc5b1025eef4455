// Copies the watch page's browser assets from node_modules (installed by
// `npm ci` from the pinned package-lock.json) into static/vendor, which
// the Go package embeds. static/vendor is not committed.
import { copyFileSync, mkdirSync } from "node:fs";

const out = new URL("./static/vendor/", import.meta.url);
mkdirSync(out, { recursive: true });
const files = [
  ["node_modules/@xterm/xterm/lib/xterm.js", "xterm.js"],
  ["node_modules/@xterm/xterm/css/xterm.css", "xterm.css"],
  ["node_modules/@xterm/xterm/LICENSE", "xterm.LICENSE"],
  ["node_modules/asciinema-player/dist/bundle/asciinema-player.min.js", "asciinema-player.min.js"],
  ["node_modules/asciinema-player/dist/bundle/asciinema-player.css", "asciinema-player.css"],
  ["node_modules/asciinema-player/LICENSE", "asciinema-player.LICENSE"],
];
for (const [from, to] of files) {
  copyFileSync(new URL(from, import.meta.url), new URL(to, out));
}
console.log("watch page assets copied to static/vendor");
