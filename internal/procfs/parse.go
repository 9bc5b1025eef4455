// Package procfs is the one home of ptyseam's Linux /proc and cgroupfs
// readers: the local backend's probe and teardown, the pipe backend's
// process scan, the test servers' and the test harness's leftover checks.
// The parsers are pure functions of their input (no file access) so that
// they are fuzzed on every platform (seed corpora in testdata/fuzz); the
// readers return errors where there is no /proc.
package procfs

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
)

// ErrParse is returned for /proc content that does not parse.
var ErrParse = errors.New("procfs: malformed /proc data")

// Stat holds the fields of /proc/PID/stat the backend uses.
type Stat struct {
	State     byte   // R, S, D, T, t, Z, X, ...
	PPID      int    // field 4
	PGRP      int    // field 5
	Session   int    // field 6
	Flags     uint64 // field 9, the kernel's PF_* flags (PFExiting)
	StartTime uint64 // field 22, clock ticks since boot
	// CPU time in clock ticks (USER_HZ, 100 a second on Linux): the
	// process's own in user and system mode (fields 14, 15), and that of
	// its children it has waited for, with theirs (fields 16, 17).
	Utime, Stime, CUtime, CStime uint64
}

// PFExiting is the flag (Stat.Flags) of a process that is exiting: it
// has begun to end and takes no more signals.
const PFExiting = 0x4

// Exiting reports whether the process is exiting or gone.
func (s Stat) Exiting() bool { return s.Gone() || s.Flags&PFExiting != 0 }

// gone reports whether the process is a zombie or dead (it counts as gone).
func (s Stat) Gone() bool { return s.State == 'Z' || s.State == 'X' || s.State == 'x' }

// ParseStat parses /proc/PID/stat. The command name (field 2) may contain
// spaces and parentheses, so fields are counted after the last ')'.
func ParseStat(b []byte) (Stat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Stat{}, ErrParse
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); starttime is field 22, so f[19].
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, ErrParse
	}
	var st Stat
	st.State = f[0][0]
	var err error
	if st.PPID, err = atoi(f[1]); err != nil {
		return Stat{}, err
	}
	if st.PGRP, err = atoi(f[2]); err != nil {
		return Stat{}, err
	}
	if st.Session, err = atoi(f[3]); err != nil {
		return Stat{}, err
	}
	if st.Flags, err = strconv.ParseUint(string(f[6]), 10, 64); err != nil {
		return Stat{}, ErrParse
	}
	if st.StartTime, err = strconv.ParseUint(string(f[19]), 10, 64); err != nil {
		return Stat{}, ErrParse
	}
	for i, dst := range []*uint64{&st.Utime, &st.Stime, &st.CUtime, &st.CStime} {
		v, ok := parseTicks(f[11+i])
		if !ok {
			return Stat{}, ErrParse
		}
		*dst = v
	}
	return st, nil
}

// parseTicks parses a field of clock ticks: decimal digits that fit in
// 63 bits (the kernel prints a long), without allocating.
func parseTicks(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

func atoi(b []byte) (int, error) {
	n, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return 0, ErrParse
	}
	return int(n), nil
}

// TaskStatus holds the fields of /proc/PID/task/TID/status the probe uses.
type TaskStatus struct {
	State             byte   // first letter of the State: line
	VoluntarySwitches uint64 // voluntary_ctxt_switches
	// Signal sets, bit sig-1 for signal sig (0 where the line is absent):
	// pending for the task (SigPnd) and for its whole process (ShdPnd),
	// blocked (SigBlk), ignored (SigIgn) and caught by a handler (SigCgt).
	SigPnd, ShdPnd, SigBlk, SigIgn, SigCgt uint64
}

// ParseStatus parses /proc/PID/status (or a task's status).
func ParseStatus(b []byte) (TaskStatus, error) {
	var ts TaskStatus
	var haveState, haveSwitches bool
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		key, val, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		val = bytes.TrimSpace(val)
		switch string(key) {
		case "State":
			if len(val) == 0 {
				return TaskStatus{}, ErrParse
			}
			ts.State = val[0]
			haveState = true
		case "voluntary_ctxt_switches":
			n, err := strconv.ParseUint(string(val), 10, 64)
			if err != nil {
				return TaskStatus{}, ErrParse
			}
			ts.VoluntarySwitches = n
			haveSwitches = true
		case "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt":
			n, err := strconv.ParseUint(string(val), 16, 64)
			if err != nil {
				return TaskStatus{}, ErrParse
			}
			switch key[3] { // Pnd, Blk, Ign, Cgt
			case 'B':
				ts.SigBlk = n
			case 'I':
				ts.SigIgn = n
			case 'C':
				ts.SigCgt = n
			default:
				if key[1] == 'i' {
					ts.SigPnd = n
				} else {
					ts.ShdPnd = n
				}
			}
		}
	}
	if !haveState || !haveSwitches {
		return TaskStatus{}, ErrParse
	}
	return ts, nil
}

// Syscall is the content of /proc/PID/task/TID/syscall.
type Syscall struct {
	// Blocked is true when the task is blocked in the system call Nr with
	// arguments Args; false for "running" or "-1 sp pc" (not in a call).
	Blocked bool
	Nr      int64
	Args    [6]uint64
}

// ParseSyscall parses /proc/PID/task/TID/syscall: "running", "-1 sp pc",
// or "nr a0 a1 a2 a3 a4 a5 sp pc" with hexadecimal arguments.
func ParseSyscall(b []byte) (Syscall, error) {
	f := bytes.Fields(b)
	if len(f) == 0 {
		return Syscall{}, ErrParse
	}
	if string(f[0]) == "running" {
		return Syscall{}, nil
	}
	nr, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return Syscall{}, ErrParse
	}
	if nr < 0 {
		return Syscall{}, nil
	}
	if len(f) < 7 {
		return Syscall{}, ErrParse
	}
	sc := Syscall{Blocked: true, Nr: nr}
	for i := range sc.Args {
		a := f[i+1]
		if !bytes.HasPrefix(a, []byte("0x")) {
			return Syscall{}, ErrParse
		}
		v, err := strconv.ParseUint(string(a[2:]), 16, 64)
		if err != nil {
			return Syscall{}, ErrParse
		}
		sc.Args[i] = v
	}
	return sc, nil
}

// ParseMountinfoCgroup2 returns the mount point of the first cgroup2
// filesystem in /proc/self/mountinfo.
func ParseMountinfoCgroup2(b []byte) (string, bool) {
	return ParseMountinfo(b, func(fstype, _ string) bool { return fstype == "cgroup2" })
}

// ParseMountinfo returns the mount point of the first mount in
// /proc/self/mountinfo whose file system type and super options satisfy
// match.
func ParseMountinfo(b []byte, match func(fstype, superOptions string) bool) (string, bool) {
	for m := range Mounts(b) {
		if match(m.FSType, m.SuperOptions) {
			return m.Point, true
		}
	}
	return "", false
}

// unescapeMountinfo undoes the kernel's octal escapes (\040 for a space,
// \011, \012, \134) in a mountinfo path.
func unescapeMountinfo(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && isOctal(b[i+1:]) {
			v := (b[i+1]-'0')<<6 | (b[i+2]-'0')<<3 | (b[i+3] - '0')
			out = append(out, v)
			i += 3
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isOctal(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	for _, c := range b[:3] {
		if c < '0' || c > '7' {
			return false
		}
	}
	return b[0] <= '3'
}

// ParseProcCgroup returns the cgroup v2 path from /proc/self/cgroup (the
// "0::/path" line).
func ParseProcCgroup(b []byte) (string, bool) {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		if p, ok := bytes.CutPrefix(line, []byte("0::")); ok {
			if len(p) == 0 || p[0] != '/' {
				return "", false
			}
			return string(p), true
		}
	}
	return "", false
}

// ParseCgroupEvents reads the populated flag of a cgroup.events file.
func ParseCgroupEvents(b []byte) (populated bool, ok bool) {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		if v, found := bytes.CutPrefix(line, []byte("populated ")); found {
			switch string(v) {
			case "0":
				return false, true
			case "1":
				return true, true
			}
			return false, false
		}
	}
	return false, false
}

// EpollTarget is one fd an epoll instance watches (a "tfd:" line of
// /proc/PID/fdinfo/EPFD).
type EpollTarget struct {
	FD     int
	Events uint32
}

// ParseEpollFdinfo lists the targets of an epoll fd's fdinfo. Lines look
// like "tfd:        0 events:       19 data: 0 pos:0 ino:3 sdev:17".
func ParseEpollFdinfo(b []byte) []EpollTarget {
	var out []EpollTarget
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		f := bytes.Fields(line)
		if len(f) < 4 || string(f[0]) != "tfd:" || string(f[2]) != "events:" {
			continue
		}
		fd, err := strconv.ParseInt(string(f[1]), 10, 32)
		if err != nil || fd < 0 {
			continue
		}
		ev, err := strconv.ParseUint(string(f[3]), 16, 32)
		if err != nil {
			continue
		}
		out = append(out, EpollTarget{FD: int(fd), Events: uint32(ev)})
	}
	return out
}

// EnvironHas reports whether a NUL-separated environment block (the
// content of /proc/PID/environ) holds exactly the entry want
// ("NAME=VALUE").
func EnvironHas(env []byte, want string) bool {
	if want == "" {
		return false
	}
	for len(env) > 0 {
		var e []byte
		e, env, _ = bytes.Cut(env, []byte{0})
		if string(e) == want {
			return true
		}
	}
	return false
}

// parseTaskIDs parses directory entry names of /proc/PID/task (or /proc)
// into ids, skipping names that are not positive decimal numbers.
func parseTaskIDs(names []string) []int {
	ids := make([]int, 0, len(names))
	for _, n := range names {
		if id, ok := ParsePID(n); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// ParsePID parses a positive decimal process id.
func ParsePID(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n <= 0 || n > 1<<30 {
		return 0, false
	}
	return n, true
}

// ParsePIDList parses whitespace-separated pids (a children file, or
// cgroup.procs).
func ParsePIDList(b []byte) []int {
	f := bytes.Fields(b)
	out := make([]int, 0, len(f))
	for _, x := range f {
		if id, ok := ParsePID(string(x)); ok {
			out = append(out, id)
		}
	}
	return out
}

// ParseSocketInode returns the inode of an fd link "socket:[INODE]".
func ParseSocketInode(link string) (uint64, bool) {
	rest, ok := strings.CutPrefix(link, "socket:[")
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutSuffix(rest, "]")
	if !ok {
		return 0, false
	}
	ino, err := strconv.ParseUint(digits, 10, 64)
	return ino, err == nil
}

// NetSocket is one socket of a /proc/net/tcp or tcp6 table. Lines after
// the header look like
// "0: 0100007F:0016 0100007F:D2F4 01 00000000:00000000 02:000A 00000000 0 0 51234 2 ...":
// the local and remote address (hex address, then hex port), the state,
// the send and receive queues, and, tenth, the inode.
type NetSocket struct {
	Local, Remote string // as the table writes them: "0100007F:0016"
	// Queued: bytes wait in the socket's send or receive queue.
	Queued bool
	Inode  uint64
}

// FindNetSocket returns the first socket of a /proc/net/tcp or tcp6 table
// that match accepts.
func FindNetSocket(b []byte, match func(NetSocket) bool) (NetSocket, bool) {
	_, b, _ = bytes.Cut(b, []byte{'\n'}) // the header
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		f := bytes.Fields(line)
		if len(f) < 10 {
			continue
		}
		ino, err := strconv.ParseUint(string(f[9]), 10, 64)
		if err != nil {
			continue
		}
		s := NetSocket{Local: string(f[1]), Remote: string(f[2]), Inode: ino,
			Queued: strings.Trim(string(f[4]), "0:") != ""}
		if match(s) {
			return s, true
		}
	}
	return NetSocket{}, false
}

// ParseIORchar returns the rchar field of /proc/PID/io: the bytes the
// process's read system calls returned, from any file.
func ParseIORchar(b []byte) (uint64, error) {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		key, val, ok := bytes.Cut(line, []byte{':'})
		if !ok || string(key) != "rchar" {
			continue
		}
		n, err := strconv.ParseUint(string(bytes.TrimSpace(val)), 10, 64)
		if err != nil {
			return 0, ErrParse
		}
		return n, nil
	}
	return 0, ErrParse
}
