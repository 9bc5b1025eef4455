package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

func demoJobs(ctx context.Context, d *demo) error {
	m, err := jobs.New(d.svc, jobs.Config{Logger: d.svc.Options().Logger})
	if err != nil {
		return err
	}
	defer m.Shutdown(context.Background())
	exited := make(chan jobs.Event, 1)
	defer m.OnExit(func(e jobs.Event) { exited <- e })()
	j, err := m.Launch(ctx, d.owner, jobs.LaunchRequest{
		Command: "python3", Args: []string{"-u", "-m", "http.server", "--bind", "127.0.0.1", "0"},
		Title: "web", Group: "dev", NotifyOnExit: true,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  launched job %s (pid %d): python3 -m http.server, group %q\n", j.ID, j.PID, j.Group)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		info, err := m.Get(d.owner, j.ID)
		if err != nil {
			return err
		}
		if len(info.Services) > 0 {
			url = info.Services[0]
		}
	}
	if url == "" {
		return fmt.Errorf("the server's address was never detected")
	}
	fmt.Fprintf(d.out, "  service address detected in its output: %s\n", url)
	resp, err := http.Get(strings.Replace(url, "0.0.0.0", "127.0.0.1", 1))
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Fprintf(d.out, "  GET %s -> %s (%d bytes)\n", url, resp.Status, len(body))
	// The server logs the request after it answered: wait for the line.
	var page jobs.ReadResult
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if page, err = m.Read(d.owner, j.ID, jobs.ReadRequest{Pattern: "GET /"}); err != nil {
			return err
		}
		if len(page.Lines) > 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, l := range page.Lines {
		fmt.Fprintf(d.out, "    line %d: %s\n", l.N, l.Text)
	}
	if _, err := m.Stop(ctx, d.owner, j.ID, jobs.StopOptions{}); err != nil {
		return err
	}
	select {
	case e := <-exited:
		fmt.Fprintf(d.out, "  stop -> exit notification: job %s is %s (%s)\n", e.ID, e.Info.State, e.Info.StopReason)
	case <-time.After(10 * time.Second):
		return fmt.Errorf("no exit notification")
	}
	return expect(resp.StatusCode == 200 && len(page.Lines) > 0, "the job did not serve or log the request")
}
