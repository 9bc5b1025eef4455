package localpty

import (
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// guard is a small process that outlives this one to end what its
// sessions left when this process dies without closing them (SIGKILL, a
// crash, the OOM killer). It waits for a pipe whose write end only this
// process holds; the kernel closes that end when this process exits,
// however it exits, and the guard then kills every cgroup leaf named
// after this process and removes it. A clean exit has removed its leaves
// already, and the guard finds none. ReapStaleCgroups at the next start
// stays the second line: a guard killed on purpose cannot do its work.
var guard struct {
	once sync.Once
	w    *os.File // the write end, open for this process's life
}

// guardScript is the guard: /bin/sh with the leaves' directory as $1 and
// this process's owner tag as $2. It ignores the signals a terminal or a
// process group would pass on, so that only its pipe's end ends it. Each
// round kills what is in a leaf (cgroup.kill, or each process where the
// kernel lacks it) and removes the empty leaves; it gives up after 5 s,
// leaving the rest to the next start's ReapStaleCgroups.
const guardScript = `trap '' HUP INT TERM QUIT
read -r _
i=0
while [ $i -lt 50 ]; do
	left=
	for d in "$1"/` + leafPrefix + `"$2"-*; do
		[ -d "$d" ] || continue
		if [ -e "$d/cgroup.kill" ]; then
			echo 1 > "$d/cgroup.kill"
		else
			kill -9 $(cat "$d/cgroup.procs") 2>/dev/null
		fi
		rmdir "$d" 2>/dev/null || left=1
	done
	[ -z "$left" ] && exit 0
	i=$((i+1))
	sleep 0.1
done
exit 1
`

// startGuard starts this process's guard over the leaves it makes in dir,
// once. The guard is a child this process never waits for: it is
// registered as started (see StartChild), so a subreaper's teardown does
// not take it for a session's escapee, and it carries no session marker.
// Without /bin/sh the process runs unguarded, as the warning says.
func startGuard(dir string, log *slog.Logger) {
	guard.once.Do(func() {
		r, w, err := os.Pipe()
		if err != nil {
			log.Warn("localpty: no guard for a crash: leftovers wait for the next start", "error", err)
			return
		}
		defer r.Close()
		cmd := exec.Command("/bin/sh", "-c", guardScript, "ptyseam-guard", dir, ownerTag())
		cmd.Stdin = r
		cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		childMu.RLock()
		err = cmd.Start()
		if err == nil {
			mapMu.Lock()
			children[cmd.Process.Pid] = struct{}{}
			mapMu.Unlock()
		}
		childMu.RUnlock()
		if err != nil {
			w.Close()
			log.Warn("localpty: no guard for a crash: leftovers wait for the next start", "error", err)
			return
		}
		guard.w = w
	})
}
