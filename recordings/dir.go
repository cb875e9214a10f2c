package recordings

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Ext ends the name of every recording mcpscope writes on its own.
const Ext = ".mcpscope.jsonl"

// What the state directory keeps: the newest KeepSessions recordings, and
// fewer when they would take more than KeepBytes.
const (
	KeepSessions = 50
	KeepBytes    = 1 << 30
)

// Dir returns the directory the TUI records sessions into:
// $XDG_STATE_HOME/mcpscope/recordings, by default
// ~/.local/state/mcpscope/recordings.
func Dir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the state directory: %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "mcpscope", "recordings"), nil
}

// NewPath returns a fresh path in dir for a session started at t against
// target: the time first, so that names sort by age, then the target's
// name in safe characters.
func NewPath(dir, target string, t time.Time) string {
	return filepath.Join(dir, t.UTC().Format("20060102T150405.000Z")+"-"+slug(target)+Ext)
}

// slug names a target in a file name: a URL's host and path, or a command
// line's program and last argument (unless it is a flag, an assignment or
// redacted), in safe characters, at most 48 bytes.
func slug(target string) string {
	name := target
	if _, rest, ok := strings.Cut(target, "://"); ok {
		name, _, _ = strings.Cut(rest, "?")
	} else if f := strings.Fields(target); len(f) > 0 {
		name = filepath.Base(f[0])
		// The last argument when it names a file or a mode: never a flag,
		// an assignment or a redacted value.
		if last := f[len(f)-1]; len(f) > 1 && !strings.HasPrefix(last, "-") && !strings.ContainsAny(last, "=<>*") {
			name += "_" + filepath.Base(last)
		}
	}
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, name)
	s = strings.Trim(s, "._")
	if len(s) > 48 {
		s = s[:48]
	}
	if s == "" {
		s = "session"
	}
	return s
}

// Entry is one recording in a directory.
type Entry struct {
	Path    string
	Header  Header
	Frames  int64     // frame lines in the file
	Size    int64     // bytes on disk
	ModTime time.Time // last written
	Ended   bool      // the session closed cleanly
	Err     error     // why its header could not be read
}

// List returns the recordings in dir, newest first, with their headers and
// frame counts. A missing dir holds none.
func List(dir string) ([]Entry, error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing recordings: %w", err)
	}
	var out []Entry
	for _, d := range names {
		if d.IsDir() || !strings.HasSuffix(d.Name(), Ext) {
			continue
		}
		out = append(out, Describe(filepath.Join(dir, d.Name())))
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(b.Path, a.Path) })
	return out, nil
}

// Describe reads a recording's header and counts its frames without
// decoding them.
func Describe(path string) Entry {
	e := Entry{Path: path}
	f, err := os.Open(path)
	if err != nil {
		e.Err = err
		return e
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		e.Size, e.ModTime = st.Size(), st.ModTime()
	}
	r, err := NewReader(f)
	if err != nil {
		e.Err = fmt.Errorf("%s: %w", path, err)
		return e
	}
	e.Header = r.Header()
	var c LineCounter
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		e.Err = err
		return e
	}
	if _, err := io.Copy(&c, f); err != nil {
		e.Err = err
	}
	e.Frames, e.Ended = c.Frames, c.Ended
	return e
}

// frameMark and endMark start, after a newline, every frame line and the
// end line.
var (
	frameMark = []byte("\n{\"k\":\"" + kindFrame + "\"")
	endMark   = []byte("\n{\"k\":\"" + kindEnd + "\"")
)

// LineCounter is an io.Writer that counts the frame lines of a recording
// written to it and sees its end line, without decoding anything: a
// recording can be counted as it is read or copied.
type LineCounter struct {
	Frames int64 // frame lines
	Ended  bool  // an end line was written
	carry  [16]byte
	held   int // bytes of carry in use: the end of what was written
}

// Write counts the lines p completes; it never fails.
func (c *LineCounter) Write(p []byte) (int, error) {
	// A mark split between two writes is found across their seam: too
	// short to hold a whole mark on either side, it holds only those.
	seam := append(c.carry[:c.held:c.held], p[:min(len(p), len(frameMark)-1)]...)
	c.count(seam)
	c.count(p)
	tail := p[max(0, len(p)-len(frameMark)+1):]
	if len(tail) < len(frameMark)-1 {
		tail = append(c.carry[:c.held:c.held], tail...)
		tail = tail[max(0, len(tail)-len(frameMark)+1):]
	}
	c.held = copy(c.carry[:], tail)
	return len(p), nil
}

// count counts the marks wholly inside b.
func (c *LineCounter) count(b []byte) {
	c.Frames += int64(bytes.Count(b, frameMark))
	if bytes.Contains(b, endMark) {
		c.Ended = true
	}
}

// Prune removes the oldest recordings of dir beyond the newest keep, and
// beyond maxBytes in all; the newest is always kept.
func Prune(dir string, keep int, maxBytes int64) error {
	names, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("pruning recordings: %w", err)
	}
	var paths []string
	for _, d := range names {
		if !d.IsDir() && strings.HasSuffix(d.Name(), Ext) {
			paths = append(paths, d.Name())
		}
	}
	slices.Sort(paths)
	slices.Reverse(paths)
	var total int64
	var errs []error
	for i, name := range paths {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		total += st.Size()
		if i > 0 && (i >= keep || total > maxBytes) {
			if err := os.Remove(p); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
