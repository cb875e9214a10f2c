package wrap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// ErrAlreadyWrapped says the entry already runs through mcpscope proxy.
var ErrAlreadyWrapped = errors.New("already wrapped")

// ErrNotWrapped says there is nothing to unwrap.
var ErrNotWrapped = errors.New("not wrapped")

// Request names the entry to wrap: the server as a config file holds it
// (its Name, Source and Format), and what the wrapped entry runs.
type Request struct {
	Server mcpconfig.Server
	// Cwd picks the project of a ~/.claude.json, as the loader does.
	Cwd string
	// Exe is the mcpscope the host will launch (an absolute path).
	Exe string
	// Session is the proxy's session name; Flags more flags of the proxy
	// (--faults FILE).
	Session string
	Flags   []string
	// BackupDir is where backups go (Dir()).
	BackupDir string
	// Now stamps the backup (time.Now when nil).
	Now func() time.Time
}

// Wrap rewrites the entry r names so that the host runs it through
// `mcpscope proxy`, after keeping a backup. The file is read, rewritten,
// checked (it still parses, the entry is wrapped, nothing else changed,
// it stays within the size mcpscope reads) and written atomically with
// its mode kept, only if it did not change meanwhile (a host that
// rewrites it at that moment makes wrap start over once); on any error it
// is left as it was. One wrap or unwrap runs at a time (a lock in
// r.BackupDir).
func Wrap(r Request) (*Backup, error) {
	if !mcpconfig.IsMcpscope(r.Exe) {
		return nil, fmt.Errorf("this binary is %s: the entry would run it, but mcpscope (servers, unwrap) knows a wrapped entry by the command's file name mcpscope; rename the binary to mcpscope (or put a link named mcpscope to it on PATH) and wrap again", r.Exe)
	}
	unlock, err := lockDir(r.BackupDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	b, err := wrapOnce(r)
	if errors.Is(err, errRaced) {
		b, err = wrapOnce(r)
	}
	if errors.Is(err, errRaced) {
		return nil, fmt.Errorf("%w twice (the host keeps rewriting it); it is left as the host wrote it: try again, or quit the host first", err)
	}
	return b, err
}

// wrapOnce is one attempt of Wrap, under its lock.
func wrapOnce(r Request) (*Backup, error) {
	path, data, mode, err := readConfig(r.Server.Source)
	if err != nil {
		return nil, err
	}
	c := mcpconfig.Candidate{Path: path, Format: r.Server.Format, Workspace: r.Server.Workspace}
	s, err := entryOf(c, data, r.Server.Name, r.Cwd)
	if err != nil {
		return nil, err
	}
	if s.Wrapped {
		return nil, fmt.Errorf("%w: %q in %s already runs through mcpscope proxy; mcpscope unwrap %s restores it", ErrAlreadyWrapped, s.Name, path, s.Name)
	}
	span, err := mcpconfig.FindEntry(data, c.Format, s.Name, r.Cwd)
	if err != nil {
		return nil, fmt.Errorf("%s: the entry %q: %w", path, s.Name, err)
	}
	wrapped, err := Rewrite(data, span, s, r.Exe, r.Session, r.Flags)
	if err != nil {
		return nil, fmt.Errorf("%s: the entry %q: %w", path, s.Name, err)
	}
	if len(wrapped) > mcpconfig.MaxFileSize {
		return nil, fmt.Errorf("%s: wrapping %q would make the file %d bytes, larger than the %d mcpscope reads, so it is left as it was", path, s.Name, len(wrapped), mcpconfig.MaxFileSize)
	}
	end := span.End + len(wrapped) - len(data)
	if err := checkWrapped(c, data, wrapped, span, end, s.Name, r.Cwd); err != nil {
		return nil, fmt.Errorf("%s: wrapping %q would damage the file, so it is left as it was: %w", path, s.Name, err)
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	b := &Backup{Path: path, Name: s.Name, Host: c.Format, Project: span.Project, Session: r.Session,
		Time: now().UTC(), Original: data, Wrapped: wrapped,
		OriginalEntry: data[span.Start:span.End], WrappedEntry: wrapped[span.Start:end]}
	if err := b.save(r.BackupDir); err != nil {
		return nil, err
	}
	if err := replaceConfig(path, data, wrapped, mode); err != nil {
		b.remove()
		if errors.Is(err, errRaced) {
			return nil, err
		}
		return nil, fmt.Errorf("writing %s: %w (the file is as it was)", path, err)
	}
	return b, nil
}

// checkWrapped makes sure that wrapped differs from data only inside the
// entry (data[span.Start:span.End], wrapped[span.Start:end]), that it
// parses, and that its entry name runs through the proxy.
func checkWrapped(c mcpconfig.Candidate, data, wrapped []byte, span mcpconfig.EntrySpan, end int, name, cwd string) error {
	if !bytes.Equal(data[:span.Start], wrapped[:span.Start]) || !bytes.Equal(data[span.End:], wrapped[end:]) {
		return errors.New("the rewrite reached outside the entry")
	}
	s, err := entryOf(c, wrapped, name, cwd)
	if err != nil {
		return err
	}
	if !s.Wrapped {
		return errors.New("the rewritten entry does not run mcpscope proxy")
	}
	return nil
}

// entryOf parses data, the config file c, and returns its server name.
// A file that does not parse, or an entry that does not decode, is an
// error.
func entryOf(c mcpconfig.Candidate, data []byte, name, cwd string) (mcpconfig.Server, error) {
	servers, errs := mcpconfig.Parse(c, data, cwd)
	for _, s := range servers {
		if s.Name == name {
			return s, nil
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Error(), fmt.Sprintf("server %q:", name)) {
			return mcpconfig.Server{}, e
		}
	}
	if len(errs) > 0 {
		return mcpconfig.Server{}, errs[0]
	}
	return mcpconfig.Server{}, fmt.Errorf("%s has no server %q", c.Path, name)
}

// readConfig reads the config file at path, following symbolic links to
// the file they name (the one to rewrite), with its mode.
func readConfig(path string) (string, []byte, fs.FileMode, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, 0, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, 0, fmt.Errorf("reading %s: %w", abs, err)
	}
	f, err := os.Open(real)
	if err != nil {
		return "", nil, 0, fmt.Errorf("reading %s: %w", real, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", nil, 0, fmt.Errorf("reading %s: %w", real, err)
	}
	if !st.Mode().IsRegular() {
		return "", nil, 0, fmt.Errorf("%s is not a regular file", real)
	}
	data, err := io.ReadAll(io.LimitReader(f, mcpconfig.MaxFileSize+1))
	if err != nil {
		return "", nil, 0, fmt.Errorf("reading %s: %w", real, err)
	}
	if len(data) > mcpconfig.MaxFileSize {
		return "", nil, 0, fmt.Errorf("%s is larger than %d bytes", real, mcpconfig.MaxFileSize)
	}
	return real, data, st.Mode().Perm(), nil
}
