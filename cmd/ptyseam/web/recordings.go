package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// maxListedRecordings bounds one listing of recordings (the newest).
const maxListedRecordings = 200

// recordingName is the only file name the page serves: a session id and
// .cast, so no request reaches another file.
var recordingName = regexp.MustCompile(`^pty_[a-z0-9]{1,64}\.cast$`)

// RecordingView is one row of the page's list of recordings.
type RecordingView struct {
	Name     string    `json:"name"`
	Bytes    int64     `json:"bytes"`
	Modified time.Time `json:"modified"`
}

// listRecordings lists the recordings, newest first.
func (h *Hub) listRecordings(w http.ResponseWriter, r *http.Request) {
	out := []RecordingView{}
	if h.opts.RecordDir != "" {
		ents, err := os.ReadDir(h.opts.RecordDir)
		if err != nil {
			http.Error(w, "cannot list the recordings", http.StatusInternalServerError)
			return
		}
		for _, e := range ents {
			if !recordingName.MatchString(e.Name()) || !e.Type().IsRegular() {
				continue
			}
			if fi, err := e.Info(); err == nil && writtenByUs(fi) {
				out = append(out, RecordingView{Name: e.Name(), Bytes: fi.Size(), Modified: fi.ModTime()})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	if len(out) > maxListedRecordings {
		out = out[:maxListedRecordings]
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"recordings": out, "player": HasPlayer()})
}

// serveRecording serves one recording file.
func (h *Hub) serveRecording(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if h.opts.RecordDir == "" || !recordingName.MatchString(name) || strings.ContainsAny(name, `/\`) {
		http.Error(w, "no such recording", http.StatusNotFound)
		return
	}
	f, fi, err := openRecording(h.opts.RecordDir, name)
	if err != nil {
		http.Error(w, "no such recording", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/x-asciicast")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, name, fi.ModTime(), f)
}

// openRecording opens dir/name only if it is a regular file in dir itself
// that the recorder could have written (writtenByUs): never through a
// symbolic link (a pty_x.cast placed in the folder pointing at another
// file), never a FIFO that would hold the request, and the file opened is
// the one looked at.
func openRecording(dir, name string) (*os.File, os.FileInfo, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	lfi, err := root.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !lfi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil || !writtenByUs(fi) || !os.SameFile(lfi, fi) {
		f.Close()
		return nil, nil, fmt.Errorf("%s changed while it was opened", name)
	}
	return f, fi, nil
}
