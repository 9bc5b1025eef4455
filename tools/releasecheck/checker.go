package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// checker holds one run of the release check.
type checker struct {
	root    string // the repository
	version string // the candidate version of every module
	rev     string // the git revision released
	scratch string // temporary files: the exported tree, the proxy, caches
	modules []*modDir
	// worktree makes the check read the working tree instead of an
	// exported revision (tidy uses it).
	worktree bool
}

// modDir is one module directory to release.
type modDir struct {
	dir  string // relative to the repository root
	path string // the module path
	file *modfile.File
}

func (c *checker) src() string {
	if c.worktree {
		return c.root
	}
	return filepath.Join(c.scratch, "src")
}
func (c *checker) proxy() string { return filepath.Join(c.scratch, "proxy") }

// check runs every step and returns the problems found. An error means the
// check itself could not run.
func (c *checker) check(ctx context.Context, dirs []string) ([]string, error) {
	if err := c.export(ctx); err != nil {
		return nil, err
	}
	for _, d := range dirs {
		m, err := c.load(d)
		if err != nil {
			return nil, err
		}
		c.modules = append(c.modules, m)
	}
	var problems []string
	for _, m := range c.modules {
		problems = append(problems, c.checkModFile(m)...)
		p, err := c.checkSiblings(m)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
		problems = append(problems, c.zip(m)...)
	}
	if len(problems) > 0 {
		// The go command steps below need every module on the proxy.
		return problems, nil
	}
	for _, m := range c.modules {
		problems = append(problems, c.tidyAndBuild(ctx, m)...)
	}
	problems = append(problems, c.fetchIntoFreshModule(ctx)...)
	return problems, nil
}

// export writes the committed tree at c.rev into the scratch directory, so
// that untracked and ignored files (node_modules, build output) are not
// released.
func (c *checker) export(ctx context.Context) error {
	if err := os.MkdirAll(c.src(), 0o755); err != nil {
		return err
	}
	archive := exec.CommandContext(ctx, "git", "-C", c.root, "archive", "--format=tar", c.rev)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", c.src())
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var archErr strings.Builder
	archive.Stderr = &archErr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return fmt.Errorf("git archive %s: %v: %s", c.rev, err, strings.TrimSpace(archErr.String()))
	}
	return untar.Wait()
}

func (c *checker) load(dir string) (*modDir, error) {
	dir = filepath.Clean(dir)
	name := filepath.Join(c.src(), dir, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%s: no committed go.mod: %w", dir, err)
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, err
	}
	if f.Module == nil {
		return nil, fmt.Errorf("%s/go.mod: no module line", dir)
	}
	return &modDir{dir: dir, path: f.Module.Mod.Path, file: f}, nil
}

// goEnv is the environment of every go command the check runs: outside the
// workspace, this run's modules from the scratch proxy first, everything
// else from the local module cache and then the usual proxy, and a scratch
// module cache so an earlier run's zips of the same version are not reused.
func (c *checker) goEnv() []string {
	cache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	upstream, _ := exec.Command("go", "env", "GOPROXY").Output()
	proxies := "file://" + c.proxy()
	if dl := filepath.Join(strings.TrimSpace(string(cache)), "cache", "download"); isDir(dl) {
		proxies += ",file://" + dl
	}
	if u := strings.TrimSpace(string(upstream)); u != "" && u != "off" {
		proxies += "," + u
	}
	prefixes := make([]string, 0, len(c.modules))
	for _, m := range c.modules {
		prefixes = append(prefixes, m.path)
	}
	env := append(os.Environ(),
		"GOWORK=off",
		"GOFLAGS=-mod=mod -modcacherw",
		"GOPROXY="+proxies,
		"GONOSUMDB="+strings.Join(prefixes, ","),
		"GOMODCACHE="+filepath.Join(c.scratch, "modcache"),
		"GOTOOLCHAIN=local",
	)
	return env
}

// goCmd runs the go command in dir and returns its combined output.
func (c *checker) goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = c.goEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
