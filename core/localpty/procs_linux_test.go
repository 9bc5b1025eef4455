package localpty

import (
	"bytes"
	"os"
	"strconv"
)

// markedProcesses lists live (non-zombie) processes whose environment
// holds MarkerEnv=marker, or a marker starting with marker when prefix is
// set. It scans all of /proc, independently of the code under test.
func markedProcesses(marker string, prefix bool) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(MarkerEnv + "=" + marker)
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		found := false
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) || prefix && bytes.HasPrefix(kv, want) {
				found = true
				break
			}
		}
		if found && processAlive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] != 'Z' && b[i+2] != 'X'
}

// findOwnCgroupDir returns the directory session leaves are made in.
func findOwnCgroupDir() (string, error) { return findOwnCgroup() }
