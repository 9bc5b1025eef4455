package procfs

import "strconv"

// Path returns /proc/PID/rest.
func Path(pid int, rest string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + rest
}

// TaskPath returns /proc/PID/task/TID/rest.
func TaskPath(pid, tid int, rest string) string {
	return "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid) + "/" + rest
}

// ReadStat reads and parses /proc/PID/stat.
func ReadStat(pid int, buf []byte) (Stat, error) {
	b, err := ReadFile(Path(pid, "stat"), buf)
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(b)
}

// ListTasks returns the thread ids of pid.
func ListTasks(pid int) ([]int, error) { return listDir(Path(pid, "task")) }

// ListPIDs returns every process id in /proc.
func ListPIDs() ([]int, error) { return listDir("/proc") }

// HasEnv reports whether pid's environment (/proc/PID/environ) holds
// exactly the entry ("NAME=VALUE").
func HasEnv(pid int, entry string) bool {
	b, err := ReadFile(Path(pid, "environ"), nil)
	return err == nil && EnvironHas(b, entry)
}

// Alive reports whether pid is a process that has not exited (a zombie
// has) and, when start is not 0, is the one that started at start (clock
// ticks since boot, Stat.StartTime): a later process reusing the pid is
// not.
func Alive(pid int, start uint64) bool {
	st, err := ReadStat(pid, nil)
	return err == nil && !st.Gone() && (start == 0 || st.StartTime == start)
}
