package ui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/recordings"
)

// savedMsg reports a save: the path and how many frames it holds.
type savedMsg struct {
	path   string
	frames int64
	err    error
}

// filterPrompt and savePrompt start the input line; filterPlaceholder
// is what it shows while nothing is typed.
const (
	filterPrompt      = "/ "
	savePrompt        = "save to: "
	filterPlaceholder = "method · > or < · #id · error · control|stream|datagram|stderr"
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
	m.filtering, m.saving, m.asked = false, false, nil
	m.input.Blur()
	m.input.Prompt, m.input.Placeholder = filterPrompt, filterPlaceholder
	return saving
}

// save writes the capture so far to path, off the UI's goroutine: a copy
// of the session's recording up to its last whole line when there is one,
// else the frames and stream marks the store holds, as a new recording.
func (m *Model) save(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	m.status.notePath("saving to " + path + "…")
	from, store, sv := m.cfg.Recording, m.cfg.Store, m.storeSave()
	return func() tea.Msg {
		if from != "" {
			n, err := copyRecording(from, path)
			return savedMsg{path: path, frames: n, err: err}
		}
		n, err := sv.write(store, path)
		return savedMsg{path: path, frames: n, err: err}
	}
}

// storeSave is how the store is written as a recording: the header and
// options the command line gave, the recorded ones in a replay, and the
// link the session settled on.
type storeSave struct {
	header                   recordings.Header
	opts                     recordings.Options
	transport, era, protocol string
}

// storeSave gathers what writing the store needs, on the UI's goroutine.
func (m *Model) storeSave() storeSave {
	sv := storeSave{header: m.cfg.RecordHeader, opts: m.cfg.RecordOptions}
	if sv.header.Target == "" {
		sv.header.Target = m.cfg.Target
	}
	switch {
	case m.replay != nil:
		sv.header = m.replay.player.Header()
		sv.header.Started = time.Time{}
		pos := m.replay.player.Position()
		sv.transport = pos.Transport
	case m.conn.link.Transport != nil && m.conn.ready:
		s := m.conn.link.Session
		sv.transport = client.LinkStateOf(m.conn.link.Transport).Transport
		sv.era, sv.protocol = s.Era().String(), s.ProtocolVersion()
	}
	return sv
}

// saved reports how a save went.
func (m *Model) saved(msg savedMsg) {
	if msg.err != nil {
		m.status.note("") // the outcome replaces "saving to …"
		m.status.setError(fmt.Errorf("saving the capture: %w", msg.err))
		return
	}
	m.status.notePath("saved " + plural.Count(msg.frames, "frame", "frames") + " to " + msg.path)
}

// copyRecording copies the recording at from to a new file to, up to its
// last whole line (the writer may be halfway through one), and counts its
// frames. It reads the file as it copies: a long session's recording is
// never held in memory.
func copyRecording(from, to string) (int64, error) {
	src, err := os.Open(from)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return 0, err
	}
	whole, err := lastWholeLine(src, st.Size())
	if err != nil {
		return 0, err
	}
	var c recordings.LineCounter // counted as it is copied: the copy is not read again
	if err := writeNew(to, func(w io.Writer) error {
		_, err := io.Copy(io.MultiWriter(w, &c), io.NewSectionReader(src, 0, whole))
		return err
	}); err != nil {
		return 0, err
	}
	return c.Frames, nil
}

// lastWholeLine returns the length of f's first size bytes up to and with
// their last newline, reading back from the end a block at a time.
func lastWholeLine(f io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// write writes the frames and stream marks st holds into a new recording
// at path.
func (sv storeSave) write(st *capture.Store, path string) (int64, error) {
	var n int64
	err := writeNew(path, func(out io.Writer) error {
		w, err := recordings.NewWriter(out, sv.header, sv.opts)
		if err != nil {
			return err
		}
		if sv.transport != "" || sv.protocol != "" {
			w.Link(sv.transport, sv.era, sv.protocol)
		}
		stats := st.Stats()
		for seq := stats.FirstSeq; seq < stats.FirstSeq+uint64(st.Len()); seq += 1024 {
			for _, f := range st.Window(seq, 1024) {
				c := *f
				w.Append(&c)
			}
		}
		for _, s := range st.Streams() {
			if s.Label != (capture.StreamLabel{}) {
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
