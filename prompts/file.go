package prompts

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/filepicker"
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// defaultFileRows is the height of the file list before SetSize.
const defaultFileRows = 10

// fileWidget answers a file prompt with the content of a file chosen in a
// picker that starts in a start directory (or, with Options.PathOnly, with
// its path): ← goes to the parent directory, and a path can be typed
// (file_path.go).
type fileWidget struct {
	*base
	fp       filepicker.Model
	typed    *pathInput // the typed path, while its input is open
	root     string
	limit    int64
	pathOnly bool
	accept   []string
	value    json.RawMessage // the chosen file's FileValue, or its path; nil before
	chosen   string          // the chosen file, relative to root
	size     int64
}

func newFile(b *base, opts Options) *fileWidget {
	root := opts.Dir
	if root == "" {
		root, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	w := &fileWidget{base: b, root: root, limit: opts.MaxFileSize, pathOnly: opts.PathOnly, accept: acceptList(b.prompt.Accept)}
	if w.limit <= 0 {
		w.limit = DefaultMaxFileSize
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		b.notes = append(b.notes, fmt.Sprintf("The start directory %s cannot be listed.", root))
	}
	fp := w.picker(root, defaultFileRows)
	if cmd := fp.Init(); cmd != nil { // list the start directory now: a Widget has no Init
		fp, _ = fp.Update(cmd())
	}
	w.fp = fp
	w.restyle()
	return w
}

// picker is a picker of dir, rows high, with the widget's keys and
// accepted types; its Init lists dir.
func (w *fileWidget) picker(dir string, rows int) filepicker.Model {
	fp := filepicker.New()
	fp.CurrentDirectory = dir
	for _, a := range w.accept {
		fp.AllowedTypes = append(fp.AllowedTypes, a, strings.ToUpper(a))
	}
	fp.ShowPermissions = false
	fp.AutoHeight = false
	fp.Cursor = "›"
	fp.KeyMap.Up, fp.KeyMap.Down = w.keys.Up, w.keys.Down
	fp.KeyMap.Back, fp.KeyMap.Open, fp.KeyMap.Select = w.keys.Back, w.keys.Open, w.keys.Submit
	fp.SetHeight(rows)
	return fp
}

// openDir shows dir in a picker of its own (its selection starts on its
// first entry) and returns the command that lists it.
func (w *fileWidget) openDir(dir string) tea.Cmd {
	w.fp = w.picker(dir, w.fp.Height())
	w.restyle()
	return w.fp.Init()
}

// restyle gives the picker the widget's styles.
func (w *fileWidget) restyle() {
	st := &w.styles
	s := filepicker.DefaultStyles()
	s.Cursor, s.Selected = st.Selected, st.Selected.Bold(true)
	s.Directory, s.File, s.Symlink = st.Message, st.Option, st.Description
	s.DisabledCursor, s.DisabledFile, s.DisabledSelected = st.Muted, st.Muted, st.Muted
	s.Permission = st.Muted
	s.FileSize = st.Muted.Width(7).Align(lipgloss.Right)
	s.EmptyDirectory = st.Muted.PaddingLeft(2).SetString("No files here.")
	w.fp.Styles = s
}

// Update handles one message: ↑/↓ move, enter opens a directory or
// chooses a file (read at once; a file that can be read answers), ←
// returns to the parent directory, / or ctrl+l opens the typed path, esc
// cancels.
func (w *fileWidget) Update(msg tea.Msg) (Action, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		w.styles = DefaultStyles(msg.IsDark())
		w.restyle()
		return ActionNone, nil
	case tea.KeyPressMsg:
		switch {
		case w.typed != nil:
			return w.typePath(msg)
		case key.Matches(msg, w.keys.Cancel):
			return ActionCancel, nil
		case key.Matches(msg, w.keys.TypePath):
			w.openPath(msg)
			return ActionNone, nil
		}
	}
	w.fp.Path = "" // set again by this very message when it chooses a file
	var cmd tea.Cmd
	w.fp, cmd = w.fp.Update(msg)
	if ok, path := w.fp.DidSelectFile(msg); ok {
		return w.choose(path), cmd
	}
	if ok, path := w.fp.DidSelectDisabledFile(msg); ok {
		w.refuseType(path)
	}
	return ActionNone, cmd
}

// refuseType shows that the file at path is not of an accepted type.
func (w *fileWidget) refuseType(path string) {
	w.checked = true
	w.invalid = fmt.Sprintf("%s is not one of the accepted types (%s)", filepath.Base(path), strings.Join(w.accept, ", "))
}

// choose reads the file at path (or, PathOnly, checks that it is a
// regular file) and answers with it, or shows why not.
func (w *fileWidget) choose(path string) Action {
	w.refusal, w.suggestion = "", ""
	v, size, err := w.answerOf(path)
	if err != nil {
		w.value, w.chosen = nil, ""
		return w.submit(err)
	}
	w.value, w.size = v, size
	w.chosen = path
	if rel, err := filepath.Rel(w.root, path); err == nil && !strings.HasPrefix(rel, "..") {
		w.chosen = rel
	}
	return w.submit(w.Validate())
}

// answerOf is the answer that choosing path gives and the file's size:
// its FileValue, or with PathOnly its absolute path.
func (w *fileWidget) answerOf(path string) (json.RawMessage, int64, error) {
	if !w.pathOnly {
		v, err := ReadFileValue(path, w.limit)
		if err != nil {
			return nil, 0, err
		}
		var fv FileValue
		_ = json.Unmarshal(v, &fv)
		return v, fv.Size, nil
	}
	name := filepath.Base(path)
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, 0, fmt.Errorf("%s cannot be read: %w", name, err)
	case !info.Mode().IsRegular():
		return nil, 0, fmt.Errorf("%s is not a regular file", name)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	v, err := json.Marshal(abs)
	return v, info.Size(), err
}

// Value is the chosen file as {"name","size","content"} (content in
// base64), or with PathOnly its absolute path as a JSON string; null when
// none is chosen and none is required.
func (w *fileWidget) Value() (json.RawMessage, error) {
	switch {
	case w.value != nil:
		return w.value, nil
	case w.required():
		return nil, errors.New("no file chosen")
	}
	return json.RawMessage("null"), nil
}

// Validate asks a required prompt for a file.
func (w *fileWidget) Validate() error {
	if w.value == nil && w.required() {
		return errors.New("choose a file: enter on a file reads it")
	}
	return nil
}

// Render draws the directory, the files and the file chosen.
func (w *fileWidget) Render(width, h int) string {
	rules := []string{}
	if w.required() {
		rules = append(rules, "required")
	}
	if len(w.accept) > 0 {
		rules = append(rules, "accepts "+strings.Join(w.accept, ", "))
	}
	if w.pathOnly {
		rules = append(rules, "any size (not read here)")
	} else {
		rules = append(rules, "up to "+byteSize(w.limit))
	}
	return w.frame(width, h, strings.Join(rules, " · "), w.body)
}

// body draws the directory line, the typed path and its completions
// while it is open, the list and the chosen line in avail lines of width
// cells.
func (w *fileWidget) body(width int, avail int) []string {
	st := &w.styles
	dir := w.fp.CurrentDirectory
	if rel, err := filepath.Rel(w.root, dir); err == nil && !strings.HasPrefix(rel, "..") {
		dir = "./" + filepath.ToSlash(rel)
		if rel == "." {
			dir = "./"
		}
	}
	lines := []string{st.Muted.Render("in " + dir)}
	if w.typed != nil {
		lines = append(lines, w.typed.lines(w.base, width)...)
	}
	var tail []string
	if w.chosen != "" {
		tail = append(tail, st.Selected.Render(fmt.Sprintf("chosen: %s (%s)", w.chosen, byteSize(w.size))))
	}
	rows := max(1, avail-len(lines)-len(tail))
	if w.fp.Height() != rows {
		w.fp.SetHeight(rows)
		w.fp, _ = w.fp.Update(tea.WindowSizeMsg{Height: rows})
	}
	list := splitLines(w.fp.View())
	lines = append(lines, list[:min(len(list), rows)]...)
	return append(lines, tail...)
}

// KeyMap returns the keys of a file prompt: the picker's, or the typed
// path's while its input is open.
func (w *fileWidget) KeyMap() help.KeyMap {
	if w.typed != nil {
		return typedKeys(keyhelp.Relabel(w.keys.Submit, "open / choose"), keyhelp.Relabel(w.keys.Cancel, "close the path"), w.keys.Complete)
	}
	return keyhelp.Map{
		Short:     []key.Binding{keyhelp.Relabel(w.keys.Up, "previous"), keyhelp.Relabel(w.keys.Down, "next"), w.keys.Open, w.keys.Back, w.keys.TypePath, w.keys.Cancel},
		Essential: []key.Binding{w.keys.Open, w.keys.Cancel},
	}
}
