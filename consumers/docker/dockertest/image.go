package dockertest

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/moby/moby/client"
)

// ImagePrograms are the host programs the test image holds (with the
// shared libraries ldd names for them): enough for an interactive bash,
// a POSIX sh, coreutils and ps.
var ImagePrograms = []string{
	"/bin/bash", "/bin/sh", "/bin/dash", "/bin/cat", "/bin/echo", "/bin/ls", "/bin/sleep",
	"/bin/true", "/bin/false", "/bin/kill", "/bin/ps", "/bin/env", "/bin/id", "/bin/pwd",
	"/bin/stty", "/bin/tr", "/bin/grep", "/bin/head", "/bin/wc", "/bin/setsid", "/bin/mkdir", "/bin/rm",
}

// BuildImage assembles a root file system from ImagePrograms (those that
// exist here) and their libraries, imports it into the engine as ref
// (`docker import`) and returns ref.
func BuildImage(ctx context.Context, cli *client.Client, ref string) (string, error) {
	tarball, err := RootFS()
	if err != nil {
		return "", err
	}
	res, err := cli.ImageImport(ctx, client.ImageImportSource{Source: bytes.NewReader(tarball), SourceName: "-"}, ref, client.ImageImportOptions{})
	if err != nil {
		return "", fmt.Errorf("importing the test image: %w", err)
	}
	defer res.Close()
	out, err := io.ReadAll(io.LimitReader(res, 1<<20))
	if err != nil {
		return "", fmt.Errorf("importing the test image: %w", err)
	}
	if bytes.Contains(out, []byte(`"error"`)) {
		return "", fmt.Errorf("importing the test image: %s", out)
	}
	return ref, nil
}

var lddPath = regexp.MustCompile(`(/[^ \t()]+)`)

// RootFS returns a tar of the test image's root file system.
func RootFS() ([]byte, error) {
	files := map[string]bool{}
	for _, p := range ImagePrograms {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		files[p] = true
		out, err := exec.Command("ldd", p).Output()
		if err != nil {
			continue // a static program
		}
		for _, m := range lddPath.FindAllString(string(out), -1) {
			files[m] = true
		}
	}
	if !files["/bin/bash"] || !files["/bin/sh"] {
		return nil, fmt.Errorf("the test image needs /bin/bash and /bin/sh on this host")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	addDir := func(d string, mode int64) error {
		if d == "/" || dirs[d] {
			return nil
		}
		dirs[d] = true
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimPrefix(d, "/") + "/", Mode: mode})
	}
	var addParents func(p string) error
	addParents = func(p string) error {
		d := filepath.Dir(p)
		if d == "/" {
			return nil
		}
		if err := addParents(d); err != nil {
			return err
		}
		return addDir(d, 0o755)
	}
	for _, d := range []string{"/tmp", "/proc", "/sys", "/dev", "/etc", "/root", "/home"} {
		mode := int64(0o755)
		if d == "/tmp" {
			mode = 0o1777
		}
		if err := addDir(d, mode); err != nil {
			return nil, err
		}
	}
	for name, body := range map[string]string{
		"/etc/passwd": "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n",
		"/etc/group":  "root:x:0:\nnogroup:x:65534:\n",
	} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name[1:], Mode: 0o644, Size: int64(len(body))}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		if err := addParents(f); err != nil {
			return nil, err
		}
		// The image holds the file's content under the path asked for
		// (a symlinked /bin/sh becomes a copy of dash).
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f[1:], Mode: 0o755, Size: int64(len(data))}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
