package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// runTidy tidies every named module of the working tree outside the
// workspace: the siblings, as they are in the working tree, are served at
// the candidate version from a scratch proxy, and the sums of those
// scratch zips are left out of go.sum (docs/releasing.md).
func runTidy(ctx context.Context, root, version, _ string, keep bool, dirs []string) error {
	c, cleanup, err := newChecker(root, version, "", keep)
	if err != nil {
		return err
	}
	defer cleanup()
	c.worktree = true
	for _, d := range dirs {
		m, err := c.load(d)
		if err != nil {
			return err
		}
		c.modules = append(c.modules, m)
	}
	// Serve the modules some sibling imports (a command module nobody
	// imports is not zipped: its untracked files, node_modules, stay out).
	imported := map[string]bool{}
	for _, m := range c.modules {
		deps, err := siblingImports(filepath.Join(root, m.dir), m, c.modules)
		if err != nil {
			return err
		}
		for _, d := range deps {
			imported[d] = true
		}
	}
	for _, m := range c.modules {
		if !imported[m.path] {
			continue
		}
		if err := c.zipForTidy(m); err != nil {
			return err
		}
	}
	for _, m := range c.modules {
		dir := filepath.Join(root, m.dir)
		if out, err := c.goCmd(ctx, dir, "mod", "tidy"); err != nil {
			return fmt.Errorf("%s: go mod tidy: %v\n%s", m.dir, err, indent(out))
		}
		sum := filepath.Join(dir, "go.sum")
		kept := c.foreignSums(sum)
		body := ""
		if len(kept) > 0 {
			body = strings.Join(kept, "\n") + "\n"
		}
		if err := os.WriteFile(sum, []byte(body), 0o644); err != nil {
			return err
		}
		fmt.Println("tidy:", m.dir)
	}
	return nil
}

// zipForTidy serves m's working tree at the candidate version. The zip
// checks are the release check's business: here only the module graph
// matters, so files the zip format refuses are reported, not fatal.
func (c *checker) zipForTidy(m *modDir) error {
	for _, p := range c.zip(m) {
		return fmt.Errorf("%s (fix it, or commit and run the release check)", p)
	}
	return nil
}
