package jobtools

import (
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/internal/inittrace"
)

// The bg_* tools' static schemas are built on first use, not at the
// package's initialization, which every program linking the package
// pays: init allocates less than three schemas would.
func TestInitBuildsNoSchema(t *testing.T) {
	c, err := inittrace.MeasureTest(t.Context(), os.Args[0], "github.com/ptyseam/ptyseam/consumers/jobs/jobtools")
	if err != nil {
		t.Fatal(err)
	}
	one := testing.AllocsPerRun(1, func() { schemaOf[LaunchOut]()() })
	if float64(c.Allocs) >= 3*one {
		t.Fatalf("the package's init made %d allocations, as many as three tool schemas (%.0f each): does it build schemas?", c.Allocs, one)
	}
}
