package ui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// savedMsg reports a save: the path and how many frames it holds.
type savedMsg struct {
	path   string
	frames int64
	err    error
}

// filterPrompt and savePrompt start the input line.
const (
	filterPrompt = "/ "
	savePrompt   = "save to: "
)

// askSavePath opens the input line for the file to save the capture to,
// offering a name in the working directory.
func (m *Model) askSavePath() tea.Cmd {
	m.filtering, m.saving = true, true
	m.input.Prompt = savePrompt
	m.input.SetValue("mcpscope-" + time.Now().Format("20060102-150405") + recordings.Ext)
	m.input.CursorEnd()
	return m.input.Focus()
}

// closeInput closes the input line and reports whether it was asking
// where to save.
func (m *Model) closeInput() (saving bool) {
	saving = m.saving
	m.filtering, m.saving = false, false
	m.input.Blur()
	m.input.Prompt = filterPrompt
	return saving
}

// save writes the capture so far to path, off the UI's goroutine: a copy
// of the session's recording up to its last whole line when there is one,
// else the frames and stream marks the store holds, as a new recording.
func (m *Model) save(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	m.status.note("saving to " + path + "…")
	from, store, header := m.cfg.Recording, m.cfg.Store, m.saveHeader()
	return func() tea.Msg {
		if from != "" {
			n, err := copyRecording(from, path)
			return savedMsg{path: path, frames: n, err: err}
		}
		n, err := writeStore(store, header, path)
		return savedMsg{path: path, frames: n, err: err}
	}
}

// saveHeader is the header of a recording written from the store.
func (m *Model) saveHeader() recordings.Header {
	h := recordings.Header{Target: m.cfg.Target}
	if m.replay != nil {
		h = m.replay.player.Header()
		h.Started = time.Time{}
	}
	return h
}

// saved reports how a save went.
func (m *Model) saved(msg savedMsg) {
	if msg.err != nil {
		m.status.setError(fmt.Errorf("saving the capture: %w", msg.err))
		return
	}
	m.status.note(fmt.Sprintf("saved %d frames to %s", msg.frames, msg.path))
}

// copyRecording copies the recording at from to a new file to, up to its
// last whole line (the writer may be halfway through one), and counts its
// frames.
func copyRecording(from, to string) (int64, error) {
	b, err := os.ReadFile(from)
	if err != nil {
		return 0, err
	}
	b = b[:bytes.LastIndexByte(b, '\n')+1]
	if err := writeNew(to, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return 0, err
	}
	e := recordings.Describe(to)
	return e.Frames, e.Err
}

// writeStore writes the frames and stream marks st holds into a new
// recording at path.
func writeStore(st *capture.Store, h recordings.Header, path string) (int64, error) {
	var n int64
	err := writeNew(path, func(out io.Writer) error {
		w, err := recordings.NewWriter(out, h, recordings.Options{})
		if err != nil {
			return err
		}
		stats := st.Stats()
		for seq := stats.FirstSeq; seq < stats.FirstSeq+uint64(st.Len()); seq += 1024 {
			for _, f := range st.Window(seq, 1024) {
				c := *f
				w.Append(&c)
			}
		}
		for _, s := range st.Streams() {
			if s.Label != "" {
				w.LabelStream(s.Key, s.Label)
			}
			if s.Size >= 0 {
				w.SetStreamSize(s.Key, s.Size)
			}
			if s.State != capture.StreamOpen {
				w.MarkStream(s.Key, s.State, s.Err)
			}
		}
		n = w.Frames()
		return w.Close()
	})
	return n, err
}

// writeNew creates path (refusing to replace a file), writes it with
// write and syncs it.
func writeNew(path string, write func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "." {
		if _, err := os.Stat(dir); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = write(f)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	return errors.Join(err, f.Close())
}
