package procfs

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the /proc parsers: they must
// never panic, and what they return must be consistent with the input.
// Seed corpora (real /proc content of this machine) live in
// testdata/fuzz/FuzzXxx.

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1234 (bash) S 1 1234 1234 34816 1300 4194560 1 2 3 4 5 6 7 8 20 0 1 0 98765 1000 100 18446744073709551615 1 1 0 0 0 0 65536 3686404 1266761467 0 0 0 17 1 0 0 0 0 0\n"))
	f.Add([]byte("7 (a) b) (c) Z 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 42"))
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 5 1 1 1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStat(b)
		if err != nil {
			if st != (Stat{}) {
				t.Fatalf("rejected input returned %+v", st)
			}
			return
		}
		// The fields come after the last ')': the state letter must be
		// there, and starttime must be a field of the input.
		rest := b[bytes.LastIndexByte(b, ')')+1:]
		f := bytes.Fields(rest)
		if f[0][0] != st.State {
			t.Fatalf("state %q, fields %q", st.State, f[0])
		}
		want := strings.TrimLeft(string(f[19]), "0")
		if want == "" {
			want = "0"
		}
		if strconv.FormatUint(st.StartTime, 10) != want {
			t.Fatalf("starttime %d from %q", st.StartTime, f[19])
		}
		if flags := strings.TrimLeft(string(f[6]), "0"); strconv.FormatUint(st.Flags, 10) != flags && !(flags == "" && st.Flags == 0) {
			t.Fatalf("flags %d from %q", st.Flags, f[6])
		}
		// The CPU times are fields 14 to 17, decimal digits.
		for i, v := range []uint64{st.Utime, st.Stime, st.CUtime, st.CStime} {
			if got, err := strconv.ParseUint(string(f[11+i]), 10, 64); err != nil || got != v {
				t.Fatalf("cpu field %d: %d from %q", 14+i, v, f[11+i])
			}
		}
	})
}

func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("Name:\tcat\nState:\tS (sleeping)\nTgid:\t1\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, err := ParseStatus(b)
		if err != nil {
			return
		}
		if !bytes.Contains(b, []byte("State:")) || !bytes.Contains(b, []byte("voluntary_ctxt_switches:")) {
			t.Fatalf("parsed %+v from input without the fields", ts)
		}
		if bytes.IndexByte(b, ts.State) < 0 {
			t.Fatalf("state %q not in input", ts.State)
		}
		for key, set := range map[string]uint64{"SigPnd:": ts.SigPnd, "ShdPnd:": ts.ShdPnd, "SigBlk:": ts.SigBlk, "SigIgn:": ts.SigIgn, "SigCgt:": ts.SigCgt} {
			if set != 0 && !bytes.Contains(b, []byte(key)) {
				t.Fatalf("%s %x parsed from input without the line", key, set)
			}
		}
	})
}

func FuzzParseSyscall(f *testing.F) {
	f.Add([]byte("270 0x1 0x7ffd6e0e6c40 0x0 0x0 0x0 0x7ffd6e0e6bb0 0x7ffd6e0e6b78 0x7f3c2a4f1a7e\n"))
	f.Add([]byte("running\n"))
	f.Add([]byte("-1 0x7ffd6e0e6b78 0x7f3c2a4f1a7e\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := ParseSyscall(b)
		if err != nil {
			return
		}
		if sc.Blocked {
			if sc.Nr < 0 {
				t.Fatalf("blocked in syscall %d", sc.Nr)
			}
			f := bytes.Fields(b)
			for i, a := range sc.Args {
				if got := "0x" + strconv.FormatUint(a, 16); !strings.EqualFold(strings.TrimLeft(string(f[i+1][2:]), "0"), strings.TrimLeft(got[2:], "0")) {
					t.Fatalf("arg %d = %s from %q", i, got, f[i+1])
				}
			}
		} else if sc.Nr != 0 || sc.Args != [6]uint64{} {
			t.Fatalf("not blocked but %+v", sc)
		}
	})
}

func FuzzParseMountinfo(f *testing.F) {
	f.Add([]byte("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"))
	f.Add([]byte("30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"))
	f.Add([]byte("41 31 0:38 / /mnt/with\\040space rw - cgroup2 cgroup2 rw\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		mp, ok := ParseMountinfoCgroup2(b)
		if ok && (mp == "" || mp[0] != '/') {
			t.Fatalf("mount point %q", mp)
		}
		if ok && !bytes.Contains(b, []byte("cgroup2")) {
			t.Fatalf("cgroup2 mount %q found in input without cgroup2", mp)
		}
	})
}

func FuzzParseProcCgroup(f *testing.F) {
	f.Add([]byte("0::/\n"))
	f.Add([]byte("12:pids:/user.slice\n0::/user.slice/user-0.slice/session-1.scope\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := ParseProcCgroup(b)
		if ok && (p == "" || p[0] != '/' || !bytes.Contains(b, []byte("0::"+p))) {
			t.Fatalf("path %q from %q", p, b)
		}
	})
}

func FuzzParseCgroupEvents(f *testing.F) {
	f.Add([]byte("populated 1\nfrozen 0\n"))
	f.Add([]byte("populated 0\nfrozen 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := ParseCgroupEvents(b)
		if ok && p && !bytes.Contains(b, []byte("populated 1")) {
			t.Fatalf("populated without 'populated 1' in %q", b)
		}
	})
}

func FuzzParseEpollFdinfo(f *testing.F) {
	f.Add([]byte("pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1057\ntfd:        0 events:       19 data:                0  pos:0 ino:3 sdev:17\ntfd:        5 events:        4 data: 5 pos:0 ino:9 sdev:8\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ts := ParseEpollFdinfo(b)
		if len(ts) > bytes.Count(b, []byte("tfd:")) {
			t.Fatalf("%d targets from %d tfd lines", len(ts), bytes.Count(b, []byte("tfd:")))
		}
		for _, x := range ts {
			if x.FD < 0 {
				t.Fatalf("negative fd %d", x.FD)
			}
		}
	})
}

func FuzzEnvironHas(f *testing.F) {
	f.Add([]byte("A=1\x00PTYSEAM_SESSION=abc\x00B=2\x00"), "PTYSEAM_SESSION=abc")
	f.Add([]byte("PTYSEAM_SESSION=abcd\x00"), "PTYSEAM_SESSION=abc")
	f.Fuzz(func(t *testing.T, env []byte, want string) {
		got := EnvironHas(env, want)
		// Reference: split the block and compare entries.
		ref := false
		if want != "" {
			for _, e := range strings.Split(string(env), "\x00") {
				if e == want {
					ref = true
				}
			}
		}
		if got != ref {
			t.Fatalf("EnvironHas(%q, %q) = %v, want %v", env, want, got, ref)
		}
	})
}

func FuzzParsePIDList(f *testing.F) {
	f.Add([]byte("1234 5678 \n"))
	f.Add([]byte("12\n13\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, pid := range ParsePIDList(b) {
			if pid <= 0 || !bytes.Contains(b, []byte(strconv.Itoa(pid))) {
				t.Fatalf("pid %d from %q", pid, b)
			}
		}
	})
}

func FuzzParseSocketInode(f *testing.F) {
	f.Add("socket:[51234]")
	f.Add("pipe:[77]")
	f.Fuzz(func(t *testing.T, link string) {
		ino, ok := ParseSocketInode(link)
		if !ok {
			return
		}
		if !strings.HasPrefix(link, "socket:[") || !strings.HasSuffix(link, "]") {
			t.Fatalf("%q is no socket link but parsed as inode %d", link, ino)
		}
		if v, err := strconv.ParseUint(link[len("socket:["):len(link)-1], 10, 64); err != nil || v != ino {
			t.Fatalf("%q parsed as inode %d", link, ino)
		}
	})
}

func FuzzFindNetSocket(f *testing.F) {
	f.Add([]byte(netTCPSample), uint64(51234))
	f.Add([]byte("header only"), uint64(0))
	f.Fuzz(func(t *testing.T, b []byte, ino uint64) {
		s, ok := FindNetSocket(b, func(s NetSocket) bool { return s.Inode == ino })
		if ok && (s.Inode != ino || !bytes.Contains(b, []byte(strconv.FormatUint(ino, 10))) ||
			!bytes.Contains(b, []byte(s.Local)) || !bytes.Contains(b, []byte(s.Remote))) {
			t.Fatalf("inode %d found as %+v in a table that does not hold it", ino, s)
		}
	})
}

func FuzzParseCPUTotals(f *testing.F) {
	f.Add([]byte("cpu  5520914 30573 3956790 1553181 22266 0 27850 0 0 0\ncpu0 2760457 15286 1978395 776590 11133 0 13925 0 0 0\n"))
	f.Add([]byte("cpu 1 2 3 4"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseCPUTotals(b)
		if err != nil {
			if c != (CPUTotals{}) {
				t.Fatalf("rejected input returned %+v", c)
			}
			return
		}
		if c.Busy > c.Total {
			t.Fatalf("busy %d above total %d", c.Busy, c.Total)
		}
		if !bytes.HasPrefix(b, []byte("cpu")) {
			t.Fatalf("accepted %q, which is not a cpu line", b)
		}
	})
}

func FuzzParseSchedstat(f *testing.F) {
	f.Add([]byte("1534027 201633 12\n"))
	f.Add([]byte("0 0 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSchedstat(b)
		if err != nil {
			if s != (Schedstat{}) {
				t.Fatalf("rejected input returned %+v", s)
			}
			return
		}
		// Three decimal fields: the first is RunNanos, the third Runs.
		f := bytes.Fields(b)
		if len(f) != 3 {
			t.Fatalf("accepted %d fields: %q", len(f), b)
		}
		for _, c := range []struct {
			got   uint64
			field []byte
		}{{s.RunNanos, f[0]}, {s.Runs, f[2]}} {
			if want, err := strconv.ParseUint(string(c.field), 10, 64); err != nil || want != c.got {
				t.Fatalf("%d from %q", c.got, c.field)
			}
		}
	})
}
