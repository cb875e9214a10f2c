package prompts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// The file prompt's typed path, for a file the picker does not reach
// quickly: / opens an input holding "/" (a path from the root), ctrl+l
// one holding the directory shown. A relative path is read from the
// directory shown, a leading ~ is the home directory. Tab completes the
// last element against the names of its directory (as far as they agree,
// listing them when several fit); enter opens a directory in the picker or
// chooses a file as enter on it in the list would; esc closes the input.

// maxCompletions bounds the names a tab lists.
const maxCompletions = 64

// pathInput is the typed path of a file prompt.
type pathInput struct {
	in      textinput.Model
	matches []string // the names the last tab found, when several fit
	none    string   // what the last tab found nothing for, or ""
}

// openPath opens the typed path, holding the root for "/" or the
// directory shown for ctrl+l, followed by a separator.
func (w *fileWidget) openPath(msg tea.KeyPressMsg) {
	start := string(filepath.Separator)
	if msg.Text != "/" {
		start = w.fp.CurrentDirectory
		if start == "" || !os.IsPathSeparator(start[len(start)-1]) {
			start += string(filepath.Separator)
		}
	}
	in := newInput(w.base, "a path: / from the root, ~ home, or relative")
	in.Prompt = "path> "
	in.SetValue(start)
	in.CursorEnd()
	w.typed = &pathInput{in: in}
}

// typePath handles a key while the typed path is open.
func (w *fileWidget) typePath(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	switch {
	case key.Matches(msg, w.keys.Cancel):
		w.typed = nil
		return ActionNone, nil
	case key.Matches(msg, w.keys.Submit):
		return w.goTo()
	case key.Matches(msg, w.keys.Complete):
		w.complete()
		return ActionNone, nil
	}
	before := w.typed.in.Value()
	var cmd tea.Cmd
	w.typed.in, cmd = w.typed.in.Update(msg)
	if w.typed.in.Value() != before {
		w.typed.matches, w.typed.none = nil, ""
		w.invalid = ""
	}
	return ActionNone, cmd
}

// goTo acts on the typed path: a directory opens in the picker, a file is
// chosen; a path that is neither keeps the input open and says why.
func (w *fileWidget) goTo() (Action, tea.Cmd) {
	typed := w.typed.in.Value()
	if strings.TrimSpace(typed) == "" {
		w.typed = nil
		return ActionNone, nil
	}
	path := w.resolve(typed)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.checked, w.invalid = true, "nothing at "+path
		return ActionNone, nil
	case err != nil:
		w.checked, w.invalid = true, fmt.Sprintf("%s cannot be opened: %v", path, errors.Unwrap(err))
		return ActionNone, nil
	case info.IsDir():
		w.typed, w.invalid = nil, ""
		return ActionNone, w.openDir(path)
	}
	w.typed = nil
	if !w.accepts(path) {
		w.refuseType(path)
		return ActionNone, nil
	}
	return w.choose(path), nil
}

// resolve is the absolute, clean path of typed: read from the directory
// shown when relative, from the home directory after a leading ~.
func (w *fileWidget) resolve(typed string) string {
	if rest, ok := strings.CutPrefix(typed, "~"); ok && (rest == "" || os.IsPathSeparator(rest[0])) {
		if home, err := os.UserHomeDir(); err == nil {
			typed = home + rest
		}
	}
	if !filepath.IsAbs(typed) {
		typed = filepath.Join(w.fp.CurrentDirectory, typed)
	}
	return filepath.Clean(typed)
}

// accepts reports whether the file at path has an accepted extension
// (any file does when the prompt accepts any).
func (w *fileWidget) accepts(path string) bool {
	name := filepath.Base(path)
	for _, a := range w.accept {
		if len(name) >= len(a) && strings.EqualFold(name[len(name)-len(a):], a) {
			return true
		}
	}
	return len(w.accept) == 0
}

// complete extends the last element of the typed path as far as the
// names of its directory that start with it agree, a directory's with a
// separator after it; several are listed, none is said. Hidden names
// count only after a typed dot, and names a terminal cannot show safely
// not at all.
func (w *fileWidget) complete() {
	p := w.typed
	typed := p.in.Value()
	cut := strings.LastIndexFunc(typed, func(r rune) bool { return r < 0x80 && os.IsPathSeparator(uint8(r)) }) + 1
	head, prefix := typed[:cut], typed[cut:]
	dir := w.resolve(head)
	entries, err := os.ReadDir(dir)
	if err != nil {
		p.matches, p.none = nil, "nothing to complete in "+dir
		return
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || strings.HasPrefix(n, ".") && !strings.HasPrefix(prefix, ".") || !termtext.Safe(n) {
			continue
		}
		if isDir(dir, e) {
			n += string(filepath.Separator)
		}
		names = append(names, n)
	}
	p.matches, p.none = nil, ""
	switch len(names) {
	case 0:
		p.none = "no name in " + dir + " starts with " + prefix
		return
	case 1:
	default:
		p.matches = names[:min(len(names), maxCompletions)]
	}
	p.in.SetValue(head + commonPrefix(names))
	p.in.CursorEnd()
}

// commonPrefix is the longest string every name starts with, cut on a
// character boundary.
func commonPrefix(names []string) string {
	common := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(common) && i < len(n) && common[i] == n[i] {
			i++
		}
		common = common[:i]
	}
	for !utf8.ValidString(common) {
		common = common[:len(common)-1]
	}
	return common
}

// isDir reports whether entry e of dir is a directory or a link to one.
func isDir(dir string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	info, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && info.IsDir()
}

// lines draws the input and, after a tab, what it found, in width cells.
func (p *pathInput) lines(b *base, width int) []string {
	lines := inputLine(b, &p.in, width)
	switch {
	case p.none != "":
		lines = append(lines, b.styles.Muted.Render(termtext.Line(p.none)))
	case len(p.matches) > 0:
		lines = append(lines, b.styles.Muted.Render(termtext.Line(strings.Join(p.matches, "  "))))
	}
	return lines
}
