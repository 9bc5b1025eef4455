package portprobe_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/consumers/jobs/portprobe"
)

func ExampleDetect() {
	fmt.Println(portprobe.Detect("  ➜  Local:   http://localhost:5173/"))
	fmt.Println(portprobe.Detect("Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ..."))
	// Output:
	// [http://localhost:5173]
	// [http://0.0.0.0:8000]
}
