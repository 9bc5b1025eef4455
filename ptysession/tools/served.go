package tools

import (
	"regexp"
	"strings"
)

// toolNameRE matches what may be a tool's name in text (pty_send,
// bg_stop_group).
var toolNameRE = regexp.MustCompile(`\b(pty|bg)_[a-z]+(_[a-z]+)*\b`)

// OnlyServed returns text (a hint, a description) without the sentences
// that name a tool for which unserved reports true: a server that leaves a
// tool out of its list must not send a model to it. Sentences end at ". ";
// a text whose every sentence goes is returned empty.
func OnlyServed(text string, unserved func(name string) bool) string {
	if !toolNameRE.MatchString(text) {
		return text
	}
	var kept []string
	for _, s := range strings.SplitAfter(text, ". ") {
		drop := false
		for _, name := range toolNameRE.FindAllString(s, -1) {
			if unserved(name) {
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, s)
		}
	}
	return strings.TrimSuffix(strings.Join(kept, ""), " ")
}
