package procfs

import (
	"slices"
	"testing"
)

func TestParseStatFields(t *testing.T) {
	st, err := ParseStat([]byte("4242 (my (odd) prog) T 17 4242 4000 34816 4242 4194560 1 2 3 4 5 6 7 8 20 0 1 0 98765 1000 100\n"))
	mustf(t, err, "parse")
	want := Stat{State: 'T', PPID: 17, PGRP: 4242, Session: 4000, Flags: 4194560, StartTime: 98765, Utime: 5, Stime: 6, CUtime: 7, CStime: 8}
	if st != want {
		t.Fatalf("got %+v, want %+v", st, want)
	}
	if st.Exiting() {
		t.Fatal("a stopped process without PF_EXITING counts as exiting")
	}
	if st, err := ParseStat([]byte("4242 (p) R 17 4242 4000 34816 4242 4194564 1 2 3 4 5 6 7 8 20 0 1 0 98765 1000 100\n")); err != nil || !st.Exiting() {
		t.Fatalf("an exiting process: %+v %v", st, err)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S 1 1 1 1 1 -4 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "1 (x) SS 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
		"1 (x) S 1 2 3 4 5 6 7 8 9 10 -1 12 13 14 15 16 17 18 19 20", "1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 1x 15 16 17 18 19 20"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q) succeeded", bad)
		}
	}
}

// TestParseStatOddNames: the fields are counted after the last ')', and
// malformed lines are refused.
func TestParseStatOddNames(t *testing.T) {
	line := []byte("4242 (we(ir)d name) S 17 4242 4242 34816 4242 4194560 109 0 0 0 0 0 0 0 20 0 1 0 987654 8118272 231 18446744073709551615")
	st, err := ParseStat(line)
	if err != nil || st.PPID != 17 || st.PGRP != 4242 || st.State != 'S' || st.StartTime != 987654 {
		t.Fatalf("ParseStat = %+v, %v", st, err)
	}
	for _, bad := range []string{"", "1 (x)", "1 (x) S a b", "1 (x) SS 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q) accepted", bad)
		}
	}
}

func TestParseStatusAndSyscall(t *testing.T) {
	ts, err := ParseStatus([]byte("Name:\tcat\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n"))
	mustf(t, err, "status")
	if ts != (TaskStatus{State: 'S', VoluntarySwitches: 12}) {
		t.Fatalf("status %+v", ts)
	}
	ts, err = ParseStatus([]byte("State:\tS (sleeping)\nSigQ:\t0/63704\nSigPnd:\t0000000000000100\nShdPnd:\t0000000000000002\n" +
		"SigBlk:\t0000000000010000\nSigIgn:\t0000000000384004\nSigCgt:\t000000004b813efb\nvoluntary_ctxt_switches:\t1\n"))
	mustf(t, err, "status with signal sets")
	if ts != (TaskStatus{State: 'S', VoluntarySwitches: 1, SigPnd: 0x100, ShdPnd: 0x2, SigBlk: 0x10000, SigIgn: 0x384004, SigCgt: 0x4b813efb}) {
		t.Fatalf("status with signal sets %+v", ts)
	}
	if _, err := ParseStatus([]byte("State:\tS\nSigCgt:\tzz\nvoluntary_ctxt_switches:\t1\n")); err == nil {
		t.Fatal("a malformed signal set parsed")
	}
	sc, err := ParseSyscall([]byte("270 0x1 0x7ffd6e0e6c40 0x0 0x0 0x0 0x7ffd6e0e6bb0 0x7ffd6e0e6b78 0x7f3c2a4f1a7e\n"))
	mustf(t, err, "syscall")
	if !sc.Blocked || sc.Nr != 270 || sc.Args[0] != 1 || sc.Args[1] != 0x7ffd6e0e6c40 || sc.Args[5] != 0x7ffd6e0e6bb0 {
		t.Fatalf("syscall %+v", sc)
	}
	for _, s := range []string{"running\n", "-1 0x7ffd 0x7f3c\n"} {
		sc, err := ParseSyscall([]byte(s))
		if err != nil || sc.Blocked {
			t.Fatalf("%q: %+v, %v", s, sc, err)
		}
	}
	if _, err := ParseSyscall([]byte("0 0x1 zz\n")); err == nil {
		t.Fatal("malformed syscall line parsed")
	}
}

func TestParseCgroupFiles(t *testing.T) {
	mi := []byte("31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
		"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"41 31 0:38 / /sys/fs/cgroup/un\\040ified rw,relatime - cgroup2 cgroup2 rw\n")
	if mp, ok := ParseMountinfoCgroup2(mi); !ok || mp != "/sys/fs/cgroup/un ified" {
		t.Fatalf("cgroup2 mount %q, %v", mp, ok)
	}
	if _, ok := ParseMountinfoCgroup2(mi[:100]); ok {
		t.Fatal("found a cgroup2 mount in v1-only mountinfo")
	}
	if p, ok := ParseProcCgroup([]byte("9:name=systemd:/\n4:memory:/x\n0::/a/b\n")); !ok || p != "/a/b" {
		t.Fatalf("own cgroup %q, %v", p, ok)
	}
	if p, ok := ParseCgroupEvents([]byte("populated 1\nfrozen 0\n")); !ok || !p {
		t.Fatal("populated 1 not seen")
	}
	if p, ok := ParseCgroupEvents([]byte("populated 0\nfrozen 0\n")); !ok || p {
		t.Fatal("populated 0 not seen")
	}
}

func TestParseEpollFdinfoAndLists(t *testing.T) {
	got := ParseEpollFdinfo([]byte("pos:\t0\nflags:\t02000002\ntfd:        0 events:       19 data: 0  pos:0 ino:3 sdev:17\ntfd:        7 events:        4 data: 7\n"))
	want := []EpollTarget{{FD: 0, Events: 0x19}, {FD: 7, Events: 4}}
	if !slices.Equal(got, want) {
		t.Fatalf("targets %+v, want %+v", got, want)
	}
	if got := ParsePIDList([]byte("12 13\n0 -4 x 99999999999\n")); !slices.Equal(got, []int{12, 13}) {
		t.Fatalf("pids %v", got)
	}
	if !EnvironHas([]byte("A=1\x00"+"PTYSEAM_SESSION"+"=m\x00"), "PTYSEAM_SESSION"+"=m") || EnvironHas([]byte("PTYSEAM_SESSION"+"=mm\x00"), "PTYSEAM_SESSION"+"=m") {
		t.Fatal("EnvironHas matched wrongly")
	}
}

const netTCPSample = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
	"   0: 0100007F:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 18443 1 0000000000000000 100 0 0 10 0\n" +
	"   1: 0100007F:D2F4 0100007F:0016 01 00000000:00000000 02:000A 00000000  1000        0 51234 2 0000000000000000 20 4 30 10 -1\n" +
	"   2: 0100007F:0016 0100007F:D2F4 01 00000000:0000001A 00:00000000 00000000  1000        0 51235 1 0000000000000000 20 4 30 10 -1\n"

func TestFindNetSocket(t *testing.T) {
	byInode := func(ino uint64) func(NetSocket) bool { return func(s NetSocket) bool { return s.Inode == ino } }
	for _, tc := range []struct {
		ino  uint64
		want bool
	}{{51234, true}, {18443, true}, {51235, true}, {1000, false}, {0, false}, {2, false}} {
		if _, got := FindNetSocket([]byte(netTCPSample), byInode(tc.ino)); got != tc.want {
			t.Errorf("inode %d: %v, want %v", tc.ino, got, tc.want)
		}
	}
	s, _ := FindNetSocket([]byte(netTCPSample), byInode(51234))
	if want := (NetSocket{Local: "0100007F:D2F4", Remote: "0100007F:0016", Inode: 51234}); s != want {
		t.Errorf("inode 51234: %+v, want %+v", s, want)
	}
	peer, ok := FindNetSocket([]byte(netTCPSample), func(p NetSocket) bool { return p.Local == s.Remote && p.Remote == s.Local })
	if !ok || peer.Inode != 51235 || !peer.Queued {
		t.Errorf("the peer of 51234: %+v %v, want inode 51235 with bytes queued", peer, ok)
	}
}

func TestParseSocketInode(t *testing.T) {
	for link, want := range map[string]uint64{"socket:[51234]": 51234, "socket:[0]": 0} {
		if got, ok := ParseSocketInode(link); !ok || got != want {
			t.Errorf("%q: %d %v", link, got, ok)
		}
	}
	for _, link := range []string{"pipe:[5]", "socket:[]", "socket:[12", "socket:[-1]", "/dev/pts/3", "anon_inode:[eventpoll]"} {
		if _, ok := ParseSocketInode(link); ok {
			t.Errorf("%q parsed as a socket", link)
		}
	}
}

func mustf(t *testing.T, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf(format+": %v", append(args, err)...)
	}
}

func TestParseSchedstat(t *testing.T) {
	s, err := ParseSchedstat([]byte("1534027 201633 12\n"))
	if err != nil || s != (Schedstat{RunNanos: 1534027, Runs: 12}) || !s.Known() {
		t.Fatalf("got %+v, %v", s, err)
	}
	if s, err := ParseSchedstat([]byte("0 0 0\n")); err != nil || s.Known() {
		t.Fatalf("statistics off: %+v, %v", s, err)
	}
	for _, bad := range []string{"", "1 2", "1 2 3 4", "1 x 3", "-1 2 3"} {
		if _, err := ParseSchedstat([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// ParseSchedstat allocates nothing: a caller's stack buffer stays there
// (a schedstat is read before every send to a shell).
func TestParseSchedstatAllocatesNothing(t *testing.T) {
	b := []byte("1534027 201633 12\n")
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseSchedstat(b) }); n != 0 {
		t.Fatalf("%v allocations a parse", n)
	}
}

func TestParseIORchar(t *testing.T) {
	n, err := ParseIORchar([]byte("rchar: 1234\nwchar: 8\nsyscr: 3\n"))
	if err != nil || n != 1234 {
		t.Fatalf("got %d, %v", n, err)
	}
	for _, bad := range []string{"", "wchar: 8\n", "rchar: x\n"} {
		if _, err := ParseIORchar([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
