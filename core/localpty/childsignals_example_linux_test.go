package localpty_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"

	"github.com/ptyseam/ptyseam/core/localpty"
)

// A program that starts children by other means than the backends can
// give them the default SIGHUP and SIGINT actions too, whether or not it
// was started under nohup.
func ExampleDefaultChildSignals() {
	localpty.DefaultChildSignals()
	out, err := exec.Command("grep", "SigIgn", "/proc/self/status").Output()
	if err != nil {
		fmt.Println(err)
		return
	}
	m := regexp.MustCompile(`SigIgn:\s*([0-9a-f]+)`).FindSubmatch(out)
	if m == nil {
		fmt.Printf("no SigIgn in %q\n", out)
		return
	}
	mask, _ := strconv.ParseUint(string(m[1]), 16, 64)
	fmt.Println("child ignores SIGHUP:", mask&(1<<0) != 0)
	fmt.Println("child ignores SIGINT:", mask&(1<<1) != 0)
	// Output:
	// child ignores SIGHUP: false
	// child ignores SIGINT: false
}
