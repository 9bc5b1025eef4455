//go:build unix

package browsertest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLeavesNoFilesBehind checks that the folder Chromium makes for
// its single-instance socket (org.chromium.Chromium.XXXXXX, in the
// temporary folder of its environment) is gone once the test that started
// the browser has ended. A browser that is killed never removes it: every
// browser test once left one in /tmp.
func TestBrowserLeavesNoFilesBehind(t *testing.T) {
	var socketDir string
	t.Run("browser", func(t *testing.T) {
		ctx := New(t)
		p := chromedp.FromContext(ctx).Browser.Process()
		if p == nil {
			t.Fatal("no browser process")
		}
		cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid) + "/cmdline")
		if err != nil {
			t.Fatal(err)
		}
		var userData string
		for _, arg := range bytes.Split(cmdline, []byte{0}) {
			if v, ok := strings.CutPrefix(string(arg), "--user-data-dir="); ok {
				userData = v
			}
		}
		if userData == "" {
			t.Fatalf("no --user-data-dir in the browser's command line %q", cmdline)
		}
		target, err := os.Readlink(filepath.Join(userData, "SingletonSocket"))
		if err != nil {
			t.Fatalf("the browser made no single-instance socket: %v", err)
		}
		socketDir = filepath.Dir(target)
		if _, err := os.Stat(socketDir); err != nil {
			t.Fatal(err)
		}
	})
	if socketDir == "" {
		return
	}
	if _, err := os.Stat(socketDir); !os.IsNotExist(err) {
		t.Errorf("the browser's socket folder %s is left after the test (stat: %v)", socketDir, err)
	}
}
