package dockertest

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stacksWait bounds how long dumpStacks waits for dockerd's file.
const stacksWait = 10 * time.Second

// dumpStacks asks dockerd for its goroutine stacks (on SIGUSR1 it writes
// them to a goroutine-stacks-*.log file in its exec root) and returns
// the file's text.
func (d *Daemon) dumpStacks(ctx context.Context) (string, error) {
	pattern := filepath.Join(d.Dir, "exec", "goroutine-stacks-*.log")
	before, _ := filepath.Glob(pattern)
	if err := d.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		return "", fmt.Errorf("asking dockerd for its stacks: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, stacksWait)
	defer cancel()
	size := int64(-1)
	for {
		now, _ := filepath.Glob(pattern)
		for _, f := range now {
			if slices.Contains(before, f) {
				continue
			}
			// dockerd writes the file in one go; take it once its size
			// holds between two looks.
			if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
				if fi.Size() == size {
					b, err := os.ReadFile(f)
					return string(b), err
				}
				size = fi.Size()
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("dockerd wrote no goroutine stacks to %s within %v", filepath.Dir(pattern), stacksWait)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Bounds of a blockedStacks summary.
const (
	maxStackGroups = 12
	maxGroupLines  = 24
)

var (
	goroutineHeader = regexp.MustCompile(`^goroutine \d+ \[([^,\]]+)(?:, (\d+) minutes)?[^\]]*\]:$`)
	// pointerArgs and pcOffsets differ between goroutines that wait in
	// the same place.
	pointerArgs = regexp.MustCompile(`\(0x[^)]*\)`)
	pcOffsets   = regexp.MustCompile(` \+0x[0-9a-f]+$`)
)

// blockedStacks summarizes a Go goroutine dump for a failure report: the
// goroutines blocked for a minute or more, identical stacks counted once,
// the most common first, each group's stack cut to maxGroupLines lines,
// at most maxStackGroups groups. It returns "" when no goroutine has
// waited that long.
func blockedStacks(dump string) string {
	type group struct {
		head    string
		lines   []string
		count   int
		minutes int
	}
	groups := map[string]*group{}
	for block := range strings.SplitSeq(strings.ReplaceAll(dump, "\r\n", "\n"), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		m := goroutineHeader.FindStringSubmatch(lines[0])
		if m == nil || m[2] == "" {
			continue
		}
		minutes, err := strconv.Atoi(m[2])
		if err != nil || minutes < 1 {
			continue
		}
		body := lines[1:]
		for i, l := range body {
			body[i] = pcOffsets.ReplaceAllString(pointerArgs.ReplaceAllString(l, "(...)"), "")
		}
		body = body[:min(len(body), maxGroupLines)]
		key := m[1] + "\n" + strings.Join(body, "\n")
		g := groups[key]
		if g == nil {
			g = &group{head: m[1], lines: body}
			groups[key] = g
		}
		g.count++
		g.minutes = max(g.minutes, minutes)
	}
	list := make([]*group, 0, len(groups))
	for _, g := range groups {
		list = append(list, g)
	}
	slices.SortFunc(list, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(b.minutes, a.minutes), strings.Compare(a.head, b.head))
	})
	var b strings.Builder
	for i, g := range list {
		if i == maxStackGroups {
			fmt.Fprintf(&b, "(%d more groups)\n", len(list)-i)
			break
		}
		fmt.Fprintf(&b, "%d goroutine(s) [%s, up to %d minutes]:\n%s\n\n", g.count, g.head, g.minutes, strings.Join(g.lines, "\n"))
	}
	return b.String()
}
