package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// zip writes m at the candidate version into the scratch proxy in the layout
// of GOPROXY=file://: the zip (made and checked by x/mod/zip, as the go
// command makes it), the go.mod, the .info and the version list.
func (c *checker) zip(m *modDir) []string {
	mv := module.Version{Path: m.path, Version: c.version}
	if err := module.Check(mv.Path, mv.Version); err != nil {
		return []string{fmt.Sprintf("%s: %v", m.dir, err)}
	}
	escaped, err := module.EscapePath(m.path)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", m.dir, err)}
	}
	dir := filepath.Join(c.proxy(), filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return []string{err.Error()}
	}
	src := filepath.Join(c.src(), m.dir)
	// CheckDir names every file the zip format refuses (reserved names such
	// as nul, case collisions, invalid paths, sizes); CreateFromDir would
	// stop at the first.
	if cf, err := modzip.CheckDir(src); err != nil {
		var problems []string
		for _, f := range cf.Invalid {
			problems = append(problems, fmt.Sprintf("%s: cannot be zipped as a module version: %s: %v", m.dir, f.Path, f.Err))
		}
		if len(problems) == 0 {
			problems = append(problems, fmt.Sprintf("%s: cannot be zipped as a module version: %v", m.dir, err))
		}
		return problems
	}
	out, err := os.Create(filepath.Join(dir, c.version+".zip"))
	if err != nil {
		return []string{err.Error()}
	}
	defer out.Close()
	if err := modzip.CreateFromDir(out, mv, src); err != nil {
		return []string{fmt.Sprintf("%s: zip: %v", m.dir, err)}
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return []string{err.Error()}
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{c.version, time.Now().UTC().Truncate(time.Second)})
	for name, data := range map[string][]byte{
		c.version + ".mod":  gomod,
		c.version + ".info": info,
		"list":              []byte(c.version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return []string{err.Error()}
		}
	}
	return nil
}
