package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
)

func main() {
	root := flag.String("root", ".", "repository root (a git work tree)")
	version := flag.String("version", "", "candidate version (default: the first line of ROOT/VERSION)")
	rev := flag.String("rev", "HEAD", "git revision whose committed files are released")
	keep := flag.Bool("keep", false, "keep the scratch directory and print its path")
	tidy := flag.Bool("tidy", false, "instead of checking, run `go mod tidy` in each module of the working tree against its siblings as they are now (the workspace cannot: its modules require sibling versions not yet published)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: releasecheck [flags] module-dir...")
		flag.PrintDefaults()
	}
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	run := run
	if *tidy {
		run = runTidy
	}
	if err := run(ctx, *root, *version, *rev, *keep, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "release-check:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, root, version, rev string, keep bool, dirs []string) error {
	if len(dirs) == 0 {
		return fmt.Errorf("name the module directories to release")
	}
	c, cleanup, err := newChecker(root, version, rev, keep)
	if err != nil {
		return err
	}
	defer cleanup()
	problems, err := c.check(ctx, dirs)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Println("FAIL", p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s); %d module(s) at %s", len(problems), len(dirs), c.version)
	}
	fmt.Printf("release-check: %d module(s) ready at %s\n", len(dirs), c.version)
	return nil
}

// newChecker resolves root and the candidate version (VERSION when empty)
// and makes the scratch directory; cleanup removes it unless keep.
func newChecker(root, version, rev string, keep bool) (*checker, func(), error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	if version == "" {
		b, err := os.ReadFile(filepath.Join(root, "VERSION"))
		if err != nil {
			return nil, nil, fmt.Errorf("no -version and no VERSION file: %w", err)
		}
		version = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	}
	scratch, err := os.MkdirTemp("", "releasecheck-")
	if err != nil {
		return nil, nil, err
	}
	if keep {
		fmt.Println("scratch:", scratch)
		return &checker{root: root, version: version, rev: rev, scratch: scratch}, func() {}, nil
	}
	return &checker{root: root, version: version, rev: rev, scratch: scratch}, func() { os.RemoveAll(scratch) }, nil
}
