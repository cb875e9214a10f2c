package wrap

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
)

// OthersError refuses --force while other entries of the same file have
// backups: writing back the file as it was before this wrap would also
// put those entries back as they were then (wrapped or not), and their
// own unwrap would no longer match.
type OthersError struct {
	Path, Name string
	Time       time.Time
	// Others are the other backups of the file.
	Others []*Backup
}

func (e *OthersError) Error() string {
	var names []string
	for _, o := range e.Others {
		n := fmt.Sprintf("%q", o.Name)
		if o.Project != "" {
			n += " of the project " + o.Project
		}
		names = append(names, n+" (wrapped "+o.Time.Format(time.RFC3339)+")")
	}
	return fmt.Sprintf("--force would write back %s as it was before %q was wrapped (%s): every change made to the file since would be undone (the current file is kept beside it), "+
		"and %s, also wrapped in this file, would go back to how they were then; unwrap those first, or confirm with --force-all",
		e.Path, e.Name, e.Time.Format(time.RFC3339), strings.Join(names, ", "))
}

// force writes the whole original of b over cur (nil: there is no file),
// keeping cur beside it; refused with an OthersError while other entries
// of the file have backups, unless o.ForceAll.
func (b *Backup) force(cur []byte, mode fs.FileMode, o Options) (Result, error) {
	if !o.ForceAll {
		all, _ := Backups(filepath.Dir(b.file), "")
		var others []*Backup
		for _, x := range all {
			if x.Path == b.Path && x.file != b.file {
				others = append(others, x)
			}
		}
		if len(others) > 0 {
			return Result{}, &OthersError{Path: b.Path, Name: b.Name, Time: b.Time, Others: others}
		}
	}
	res := Result{Outcome: Forced}
	if cur != nil {
		res.Kept = fmt.Sprintf("%s.unwrap-%s", b.Path, o.Now().UTC().Format("20060102T150405Z"))
		if err := writeAtomic(res.Kept, cur, mode, nil); err != nil {
			return Result{}, fmt.Errorf("keeping a copy of %s: %w (nothing changed)", b.Path, err)
		}
	}
	return finish(b, res, replaceConfig(b.Path, cur, b.Original, mode))
}
