package k8s

import (
	"slices"
	"time"
)

func sortDurations(ds []time.Duration) { slices.Sort(ds) }
