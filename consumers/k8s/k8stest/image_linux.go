package k8stest

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// The images the cluster holds (imported into containerd, never pulled).
const (
	// PauseImage is the pod sandbox image: busybox-static's sh waiting
	// for SIGTERM.
	PauseImage = "localhost/ptyseam-k8stest/pause:1"
	// ShellImage is a small shell image: busybox-static with every
	// applet in /bin, bash-static as /bin/bash, /lib and /lib64 linking
	// into /usr (empty: see HostUsr), /tmp and an /etc/passwd.
	ShellImage = "localhost/ptyseam-k8stest/shell:1"
)

// The host programs the images are made of (scripts/deps.sh installs
// them: busybox-static, bash-static).
const (
	Busybox    = "/bin/busybox"
	BashStatic = "/bin/bash-static"
)

// layer is a root file system being written as a tar.
type layer struct {
	buf bytes.Buffer
	tw  *tar.Writer
	err error
}

func newLayer() *layer {
	l := &layer{}
	l.tw = tar.NewWriter(&l.buf)
	return l
}

func (l *layer) header(h *tar.Header) {
	if l.err == nil {
		l.err = l.tw.WriteHeader(h)
	}
}

func (l *layer) dir(name string, mode int64) {
	l.header(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode})
}

func (l *layer) symlink(name, target string) {
	l.header(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777})
}

func (l *layer) file(name string, data []byte, mode int64) {
	l.header(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: mode})
	if l.err == nil {
		_, l.err = l.tw.Write(data)
	}
}

func (l *layer) hostFile(name, path string) {
	data, err := os.ReadFile(path)
	if err != nil && l.err == nil {
		l.err = err
	}
	l.file(name, data, 0o755)
}

func (l *layer) bytes() ([]byte, error) {
	if l.err == nil {
		l.err = l.tw.Close()
	}
	return l.buf.Bytes(), l.err
}

// pauseLayer is the pause image's root: busybox alone.
func pauseLayer() ([]byte, error) {
	l := newLayer()
	l.dir("bin", 0o755)
	l.hostFile("bin/busybox", Busybox)
	return l.bytes()
}

// pauseCmd is the pause image's program: it waits until SIGTERM or
// SIGINT and exits 0.
var pauseCmd = []string{"/bin/busybox", "sh", "-c", "trap 'exit 0' TERM INT; while :; do /bin/busybox sleep 3600 & wait $!; done"}

// shellLayer is the shell image's root.
func shellLayer() ([]byte, error) {
	out, err := exec.Command(Busybox, "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list: %w", Busybox, err)
	}
	l := newLayer()
	for _, d := range []string{"bin", "etc", "proc", "sys", "dev", "usr", "root", "var", "run"} {
		l.dir(d, 0o755)
	}
	l.dir("tmp", 0o1777)
	l.symlink("lib", "usr/lib")
	l.symlink("lib64", "usr/lib64")
	l.symlink("sbin", "bin")
	l.hostFile("bin/busybox", Busybox)
	l.hostFile("bin/bash", BashStatic)
	for _, applet := range strings.Fields(string(out)) {
		if applet != "busybox" && applet != "bash" {
			l.symlink("bin/"+applet, "busybox")
		}
	}
	l.file("etc/passwd", []byte("root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n"), 0o644)
	l.file("etc/group", []byte("root:x:0:\nnogroup:x:65534:\n"), 0o644)
	return l.bytes()
}

// ociArchive returns an OCI image layout archive (what `ctr images
// import` reads) of one layer, named ref, running cmd.
func ociArchive(ref string, layerTar []byte, cmd []string) ([]byte, error) {
	blobs := map[string][]byte{}
	add := func(b []byte) (string, int) {
		sum := sha256.Sum256(b)
		d := hex.EncodeToString(sum[:])
		blobs[d] = b
		return "sha256:" + d, len(b)
	}
	layerDigest, layerSize := add(layerTar)
	config, err := json.Marshal(map[string]any{
		"architecture": "amd64", "os": "linux",
		"config": map[string]any{
			"Env":        []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
			"Cmd":        cmd,
			"WorkingDir": "/",
		},
		"rootfs": map[string]any{"type": "layers", "diff_ids": []string{layerDigest}},
	})
	if err != nil {
		return nil, err
	}
	configDigest, configSize := add(config)
	manifest, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        map[string]any{"mediaType": "application/vnd.oci.image.config.v1+json", "digest": configDigest, "size": configSize},
		"layers":        []any{map[string]any{"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": layerDigest, "size": layerSize}},
	})
	if err != nil {
		return nil, err
	}
	manifestDigest, manifestSize := add(manifest)
	index, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"manifests": []any{map[string]any{
			"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": manifestDigest, "size": manifestSize,
			"annotations": map[string]string{"io.containerd.image.name": ref, "org.opencontainers.image.ref.name": ref[strings.LastIndex(ref, ":")+1:]},
		}},
	})
	if err != nil {
		return nil, err
	}
	l := newLayer()
	l.file("oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644)
	l.file("index.json", index, 0o644)
	l.dir("blobs", 0o755)
	l.dir("blobs/sha256", 0o755)
	for d, b := range blobs {
		l.file("blobs/sha256/"+d, b, 0o644)
	}
	return l.bytes()
}

// importImage loads an OCI archive into containerd's k8s.io namespace.
func (c *Cluster) importImage(archive []byte) error {
	cmd := exec.Command(Ctr, "-a", c.containerdSock(), "-n", "k8s.io", "images", "import", "-")
	cmd.Stdin = bytes.NewReader(archive)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("ctr images import: %w: %s", err, out.String())
	}
	return nil
}

// makeImages writes and imports the pause and shell images.
func (c *Cluster) makeImages() error {
	for _, im := range []struct {
		ref   string
		layer func() ([]byte, error)
		cmd   []string
	}{{PauseImage, pauseLayer, pauseCmd}, {ShellImage, shellLayer, []string{"/bin/sh"}}} {
		lt, err := im.layer()
		if err != nil {
			return fmt.Errorf("image %s: %w", im.ref, err)
		}
		ar, err := ociArchive(im.ref, lt, im.cmd)
		if err != nil {
			return fmt.Errorf("image %s: %w", im.ref, err)
		}
		if err := c.importImage(ar); err != nil {
			return fmt.Errorf("image %s: %w", im.ref, err)
		}
	}
	return nil
}
