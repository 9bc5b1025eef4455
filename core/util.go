package core

import (
	"slices"
	"strconv"
)

func quote(s string) string { return strconv.Quote(s) }

func sortStrings(s []string) { slices.Sort(s) }

func itoa(n int) string { return strconv.Itoa(n) }
