package wrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
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

	// AlreadyUnwrapped: the entry no longer runs through mcpscope proxy
	// (its original text is back, or it was edited to run something
	// else); the file was left as it is and only the backup removed.
	AlreadyUnwrapped
)

// Options are how Unwrap treats a file that changed since wrap.
type Options struct {
	// Force writes the whole file as it was before wrap back over a
	// changed one, keeping the current one beside it; refused while other
	// entries of the same file have backups, unless ForceAll.
	Force, ForceAll bool
	// Now stamps the kept copy (time.Now when nil).
	Now func() time.Time
}

// Result is what Unwrap did.
type Result struct {
	Outcome Outcome
	// Reformatted: the entry's text had changed, not its value (a host
	// rewrote the file in its own layout); EntryRestored only.
	Reformatted bool
	// Edited: the entry runs neither mcpscope proxy nor its original
	// text; AlreadyUnwrapped only.
	Edited bool
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
// (same bytes, or the same JSON in another layout); an entry that no
// longer runs through the proxy is left as it is. Any other change is
// refused with a ChangedError, unless o.Force: then the original is
// written back and the current file kept beside it. The file is written
// only if it did not change since it was read (a host that rewrites it at
// that moment makes unwrap start over once). One wrap or unwrap runs at a
// time (a lock in the backup's directory).
func Unwrap(b *Backup, o Options) (Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	unlock, err := lockDir(filepath.Dir(b.file))
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	// Another run may have unwrapped it, or wrapped it anew, meanwhile.
	fresh, err := readBackup(b.file)
	if errors.Is(err, fs.ErrNotExist) {
		return Result{}, fmt.Errorf("%w: the backup of %q in %s is gone (another mcpscope unwrap removed it)", ErrNotWrapped, b.Name, b.Path)
	}
	if err != nil {
		return Result{}, err
	}
	res, err := unwrapOnce(fresh, o)
	if errors.Is(err, errRaced) {
		res, err = unwrapOnce(fresh, o)
	}
	if errors.Is(err, errRaced) {
		return Result{}, fmt.Errorf("%w twice (the host keeps rewriting it); it is left as the host wrote it and the backup %s is kept: try again, or quit the host first", err, b.file)
	}
	return res, err
}

// unwrapOnce is one attempt of Unwrap, under its lock.
func unwrapOnce(b *Backup, o Options) (Result, error) {
	_, cur, mode, err := readConfig(b.Path)
	gone := errors.Is(err, fs.ErrNotExist)
	if err != nil && !(gone && o.Force) {
		if gone {
			return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Gone: true}
		}
		return Result{}, err
	}
	if gone {
		mode, cur = 0o600, nil
	}
	switch {
	case !gone && bytes.Equal(cur, b.Wrapped):
		return finish(b, Result{Outcome: Restored}, replaceConfig(b.Path, cur, b.Original, mode))
	case !gone && bytes.Equal(cur, b.Original):
		return finish(b, Result{Outcome: WasOriginal}, nil)
	}
	var span mcpconfig.EntrySpan
	var findErr error
	if !gone {
		span, findErr = mcpconfig.FindEntry(cur, b.Host, b.Name, b.Project)
		if findErr == nil && span.Project == b.Project {
			if res, ok := b.alreadyUnwrapped(cur, span); ok {
				return finish(b, res, nil)
			}
		}
	}
	if o.Force {
		return b.force(cur, mode, o)
	}
	if mcpconfig.IsNoEntry(findErr) || findErr == nil && b.Project != span.Project {
		return Result{}, &ChangedError{Path: b.Path, Name: b.Name, Gone: true}
	}
	if findErr != nil {
		return Result{}, fmt.Errorf("%s does not read as a config file since wrap (%w); nothing changed: mend it, or --force writes back the whole file as it was before wrap", b.Path, findErr)
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
	return finish(b, Result{Outcome: EntryRestored, Reformatted: !same}, replaceConfig(b.Path, cur, restored, mode))
}

// alreadyUnwrapped reports whether the entry at span of cur no longer
// runs through mcpscope proxy: its original text (or value) is back, or it
// decodes as a server that is not wrapped.
func (b *Backup) alreadyUnwrapped(cur []byte, span mcpconfig.EntrySpan) (Result, bool) {
	entry := cur[span.Start:span.End]
	if bytes.Equal(entry, b.OriginalEntry) || sameJSON(entry, b.OriginalEntry) {
		return Result{Outcome: AlreadyUnwrapped}, true
	}
	c := mcpconfig.Candidate{Path: b.Path, Format: b.Host}
	if s, err := entryOf(c, cur, b.Name, b.Project); err == nil && !s.Wrapped {
		return Result{Outcome: AlreadyUnwrapped, Edited: true}, true
	}
	return Result{}, false
}

// finish removes the backup once the file is written (err nil).
func finish(b *Backup, r Result, err error) (Result, error) {
	if errors.Is(err, errRaced) {
		return Result{}, err
	}
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
