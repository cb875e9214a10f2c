package wrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// Outcome says how unwrap restored a file.
type Outcome int

// The outcomes of Unwrap.
const (
	// Restored: the file was as wrap left it; it is the original again,
	// byte for byte.
	Restored Outcome = iota
	// EntryRestored: the file changed since wrap but the entry did not;
	// only the entry's original text was put back, the other changes kept.
	EntryRestored
	// WasOriginal: the file was already as before wrap; only the backup
	// was removed.
	WasOriginal
	// Forced: the file had changed and --force wrote the original back;
	// the file as it was is kept in Result.Kept.
	Forced
)

// Result is what Unwrap did.
type Result struct {
	Outcome Outcome
	// Reformatted: the entry's text had changed, not its value (a host
	// rewrote the file in its own layout); EntryRestored only.
	Reformatted bool
	// Kept is the copy of the changed file that Forced left beside it.
	Kept string
}

// ChangedError refuses to unwrap a file whose entry changed since wrap.
type ChangedError struct {
	Path, Name string
	// Gone: the file or the entry is no longer there.
	Gone bool
	// Diff is a unified diff of the entry as wrap wrote it and as it is.
	Diff string
}

func (e *ChangedError) Error() string {
	what := fmt.Sprintf("the entry %q in %s changed since wrap", e.Name, e.Path)
	if e.Gone {
		what = fmt.Sprintf("the entry %q is no longer in %s", e.Name, e.Path)
	}
	return what + "; it is left as it is (--force writes back the whole file as it was before wrap and keeps the current one beside it)"
}

// Unwrap restores the file of backup b and removes the backup. A file as
// wrap left it gets its original bytes back; a file changed since gets
// only its entry's original text back when the entry is as wrap wrote it
// (same bytes, or the same JSON in another layout), and is refused with a
// ChangedError otherwise, unless force: then the original is written back
// and the current file kept beside it. cwd is not used for the project:
// the backup names it.
func Unwrap(b *Backup, force bool, now func() time.Time) (Result, error) {
	if now == nil {
		now = time.Now
	}
	_, cur, mode, err := readConfig(b.Path)
	gone := errors.Is(err, fs.ErrNotExist)
	if err != nil && !(gone && force) {
		if gone {
			return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Gone: true}
		}
		return Result{}, err
	}
	if gone {
		mode = 0o600
	}
	switch {
	case !gone && bytes.Equal(cur, b.Wrapped):
		return finish(b, Result{Outcome: Restored}, writeAtomic(b.Path, b.Original, mode))
	case !gone && bytes.Equal(cur, b.Original):
		return finish(b, Result{Outcome: WasOriginal}, nil)
	case force:
		res := Result{Outcome: Forced}
		if !gone {
			res.Kept = fmt.Sprintf("%s.unwrap-%s", b.Path, now().UTC().Format("20060102T150405Z"))
			if err := writeAtomic(res.Kept, cur, mode); err != nil {
				return Result{}, fmt.Errorf("keeping a copy of %s: %w (nothing changed)", b.Path, err)
			}
		}
		return finish(b, res, writeAtomic(b.Path, b.Original, mode))
	}
	span, err := mcpconfig.FindEntry(cur, b.Host, b.Name, b.Project)
	if mcpconfig.IsNoEntry(err) {
		return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Gone: true}
	}
	if err != nil {
		return Result{}, fmt.Errorf("%s does not read as a config file since wrap (%w); nothing changed: mend it, or --force writes back the whole file as it was before wrap", b.Path, err)
	}
	if b.Project != span.Project {
		return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Gone: true}
	}
	curEntry := cur[span.Start:span.End]
	same := bytes.Equal(curEntry, b.WrappedEntry)
	if !same && !sameJSON(curEntry, b.WrappedEntry) {
		lineA := 1
		if was, err := mcpconfig.FindEntry(b.Wrapped, b.Host, b.Name, b.Project); err == nil {
			lineA = mcpconfig.PositionAt(b.Wrapped, int64(was.Start)).Line
		}
		lineB := mcpconfig.PositionAt(cur, int64(span.Start)).Line
		diff := UnifiedDiff(b.Path+" (the entry as wrap wrote it)", b.Path+" (the entry now)", b.WrappedEntry, curEntry, lineA, lineB)
		return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Diff: diff}
	}
	restored := apply(cur, []edit{{span.Start, span.End, string(b.OriginalEntry)}})
	c := mcpconfig.Candidate{Path: b.Path, Format: b.Host}
	if s, err := entryOf(c, restored, b.Name, b.Project); err != nil || s.Wrapped {
		return Result{}, fmt.Errorf("%s: restoring the entry %q would not give a working file, so it is left as it is (--force writes back the whole original)", b.Path, b.Name)
	}
	return finish(b, Result{Outcome: EntryRestored, Reformatted: !same}, writeAtomic(b.Path, restored, mode))
}

// finish removes the backup once the file is written (err nil).
func finish(b *Backup, r Result, err error) (Result, error) {
	if err != nil {
		return Result{}, fmt.Errorf("writing %s: %w (the backup %s is kept)", b.Path, err, b.file)
	}
	return r, b.remove()
}

// sameJSON reports whether a and b, JSON with comments allowed, hold the
// same value.
func sameJSON(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(mcpconfig.StripJSONC(a), &va) != nil || json.Unmarshal(mcpconfig.StripJSONC(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
