// Package procscan finds local processes by an environment variable they
// inherit and by ancestry, for the test servers' cleanup.
package procscan

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Find lists live processes other than this one that carry the
// environment entry NAME=VALUE (given as "NAME=VALUE") or descend from
// root (0: none).
func Find(entry string, root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	var found []int
	seen := map[int]bool{}
	needle := []byte(entry + "\x00")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid] = ppid
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && (bytes.HasPrefix(env, needle) || bytes.Contains(env, append([]byte{0}, needle...))) {
			found = append(found, pid)
			seen[pid] = true
		}
	}
	if root <= 0 {
		return found
	}
	for pid := range parent {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				if !seen[pid] {
					found = append(found, pid)
					seen[pid] = true
				}
				break
			}
			if _, ok := parent[p]; !ok {
				break
			}
		}
	}
	return found
}
