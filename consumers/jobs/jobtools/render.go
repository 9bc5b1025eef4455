package jobtools

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

// The text renderings the tools give a model: a bracketed summary line,
// then details.

func renderLaunch(in jobs.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[job %s %s: pid %d", in.ID, in.State, in.PID)
	if in.Group != "" {
		fmt.Fprintf(&b, ", group %q", in.Group)
	}
	fmt.Fprintf(&b, ", backend %s", in.Backend)
	if in.Timeout > 0 {
		fmt.Fprintf(&b, ", timeout %s", in.Timeout)
	}
	b.WriteString("]")
	for _, w := range in.Warnings {
		b.WriteString("\nwarning: " + w)
	}
	return b.String()
}

// portsNotWaited tells a model that launched a job with ports and no
// waitFor that nothing waited for them: a server may not listen yet.
func portsNotWaited(ports []int) string {
	if len(ports) == 0 {
		return ""
	}
	return fmt.Sprintf("\nports checked before the launch, not waited for: the job may not listen yet; launch with \"waitFor\":{\"port\":%d} to return once it does", ports[0])
}

// renderRead renders a read: "[job running; 1 matching line of 2; read
// on from line 2]", then each line after its number; a job that waits to
// read its terminal is "running, waiting for input on its terminal". The
// job's id and the pattern are the caller's own arguments, not repeated.
func renderRead(pattern string, r jobs.ReadResult, waiting bool) string {
	var b strings.Builder
	outcome := r.Outcome
	if outcome == "" {
		outcome = string(r.State)
	}
	if waiting {
		outcome += ", waiting for input on its terminal"
	}
	fmt.Fprintf(&b, "[job %s; ", outcome)
	noun := "line"
	if pattern != "" {
		noun = "matching line"
	}
	switch {
	case len(r.Lines) == 0:
		b.WriteString("no " + noun + "s")
	case len(r.Lines) == 1:
		fmt.Fprintf(&b, "1 %s", noun)
	default:
		fmt.Fprintf(&b, "%d %ss", len(r.Lines), noun)
	}
	fmt.Fprintf(&b, " of %d", r.Total)
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "; %d requested lines were already dropped", r.Dropped)
	}
	fmt.Fprintf(&b, "; read on from line %d", r.Next)
	if r.More {
		b.WriteString(", more available")
	}
	if r.Truncated && r.Dropped == 0 {
		b.WriteString("; cut at the size bound")
	}
	b.WriteString("]")
	width := len(strconv.FormatInt(max(r.Next, 1), 10))
	for _, l := range r.Lines {
		fmt.Fprintf(&b, "\n%*d  %s", width, l.N, l.Text)
		if l.Partial {
			b.WriteString("  [unfinished line]")
		}
	}
	return b.String()
}

func renderList(infos []jobs.Info, now time.Time) string {
	if len(infos) == 0 {
		return "[no jobs]"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s]", jobCount(len(infos)))
	for _, in := range infos {
		fmt.Fprintf(&b, "\n%s  %s  pid %d  group %q  %q  %d lines", in.ID, jobs.Outcome(in), in.PID, in.Group, in.Title, in.Output.Lines)
		if in.EndedAt.IsZero() {
			fmt.Fprintf(&b, "  up %s", now.Sub(in.StartedAt).Round(time.Second))
		}
		if len(in.Services) > 0 {
			b.WriteString("  " + strings.Join(in.Services, " "))
		}
	}
	return b.String()
}

// jobCount is n jobs in words ("1 job", "3 running jobs"), each of adj
// before the noun.
func jobCount(n int, adj ...string) string {
	noun := "jobs"
	if n == 1 {
		noun = "job"
	}
	return strings.Join(append(append([]string{strconv.Itoa(n)}, adj...), noun), " ")
}

func renderStopGroup(group string, infos []jobs.Info, dropped bool) string {
	if len(infos) == 0 {
		return fmt.Sprintf("[no running jobs in group %q]", group)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[stopped %s of group %q", jobCount(len(infos)), group)
	if dropped {
		b.WriteString("; records dropped")
	}
	b.WriteString("]")
	for _, in := range infos {
		fmt.Fprintf(&b, "\n%s  %s", in.ID, jobs.Outcome(in))
	}
	return b.String()
}

func renderDrop(r jobs.DropResult) string {
	s := fmt.Sprintf("[dropped %s]", jobCount(len(r.Dropped)))
	if len(r.Dropped) > 0 {
		s += " " + strings.Join(r.Dropped, " ")
	}
	if len(r.Skipped) > 0 {
		them := "them"
		if len(r.Skipped) == 1 {
			them = "it"
		}
		s += fmt.Sprintf("\nkept %s (stop %s first): %s", jobCount(len(r.Skipped), "running"), them, strings.Join(r.Skipped, " "))
	}
	return s
}
