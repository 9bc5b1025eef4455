package ptytools

import (
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/internal/inittrace"
	"github.com/ptyseam/ptyseam/ptysession"
)

// The tools' static schemas are built on first use, not at the package's
// initialization, which every program linking the package pays (the
// remote agent too): init allocates less than three schemas would. (It
// built fifteen, about 5,700 allocations and 36 ms on a loaded machine;
// without them it makes about 400.)
func TestInitBuildsNoSchema(t *testing.T) {
	c, err := inittrace.MeasureTest(t.Context(), os.Args[0], "github.com/ptyseam/ptyseam/ptysession/ptytools")
	if err != nil {
		t.Fatal(err)
	}
	one := testing.AllocsPerRun(1, func() { lazySchemaOf[ptysession.OpenResult]()() })
	if float64(c.Allocs) >= 3*one {
		t.Fatalf("the package's init made %d allocations, as many as three tool schemas (%.0f each): does it build schemas?", c.Allocs, one)
	}
}
