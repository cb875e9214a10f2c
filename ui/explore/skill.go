package explore

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// The Skills tab (the Skills extension, SEP-2640): enter opens a skill,
// listing its files as skills/list describes them (uri, size, digest)
// without reading any; enter on a file reads it (resources/read), v
// verifies the skill (SKILL.md first, the rest only if it passes) and
// shows which file failed, d lists the skill's directory
// (resources/directory/read).

// skillView is the open skill.
type skillView struct {
	e     entry
	files []skillRow
	dir   bool // the rows are the directory's, not the entry's files
	cur   int
	gen   int // drops the answers of a skill closed meanwhile

	busy   string         // the request in flight, "" when none
	report *skills.Report // the last verification
	err    error          // the last request's failure

	shown  string // the URI of the file shown
	text   string // its text (made safe when rendered)
	scroll int    // first line of it drawn
}

// skillRow is one file (or directory entry) of the open skill.
type skillRow struct {
	uri, size, digest, mime string
	state, reason           string // from the last verification
}

// skillFileMsg is a file read, or why it was not.
type skillFileMsg struct {
	gen  int
	file skills.File
	err  error
}

// skillVerifiedMsg is a verification's report.
type skillVerifiedMsg struct {
	gen    int
	report skills.Report
	err    error
}

// skillDirMsg is the skill's directory.
type skillDirMsg struct {
	gen     int
	entries []mcp.DirectoryEntry
	err     error
}

// tabShown reports whether the tab bar shows t: every list, and the
// skills once the server advertises them or they were asked for.
func (x *Explorer) tabShown(t exploreTab) bool {
	if t != tabSkills {
		return true
	}
	l := &x.lists[t]
	return l.state == listLoading || l.state == listLoaded || len(l.items) > 0
}

// stepTab moves to the next (by 1) or previous (by -1) shown tab.
func (x *Explorer) stepTab(by int) {
	t := x.tab
	for range tabCount {
		t = (t + exploreTab(by) + tabCount) % tabCount
		if x.tabShown(t) {
			x.tab = t
			return
		}
	}
}

// skillSize is a skill's row detail: its file count and total size.
func skillSize(s mcp.Skill) string {
	if s.Resources.Dynamic {
		return "files: dynamic"
	}
	var total int64
	for _, f := range s.Resources.Files {
		if f.Size != nil && *f.Size > 0 {
			total += *f.Size
		}
	}
	return plural.Count(len(s.Resources.Files), "file", "files") + ", " + look.ByteSize(total)
}

// openSkill shows a skill's files as its entry lists them; a skill whose
// files are "dynamic" shows its directory instead.
func (x *Explorer) openSkill(e entry) tea.Cmd {
	if e.bad != "" {
		return nil
	}
	gen := 1
	if x.skill != nil {
		gen = x.skill.gen + 1
	}
	v := &skillView{e: e, gen: gen, files: skillRows(e)}
	x.mode, x.skill, x.target = modeSkill, v, e
	if e.skill.Resources.Dynamic {
		return x.readSkillDir()
	}
	return nil
}

// skillsClient is a skills client over the session.
func (x *Explorer) skillsClient() (*skills.Client, error) {
	s, err := x.d.Session()
	if err != nil {
		return nil, err
	}
	return &skills.Client{Session: s}, nil
}

// skillKey handles a key on the open skill.
func (x *Explorer) skillKey(msg tea.KeyPressMsg) tea.Cmd {
	v, k := x.skill, x.keys
	switch {
	case key.Matches(msg, k.Back):
		switch {
		case v.shown != "":
			v.shown, v.text, v.scroll = "", "", 0
		case v.dir && !v.e.skill.Resources.Dynamic:
			v.files, v.dir, v.cur = skillRows(v.e), false, 0
		default:
			x.backToList()
		}
	case key.Matches(msg, k.ReadFile):
		if v.cur < len(v.files) && v.busy == "" {
			return x.readSkillFile(v.files[v.cur])
		}
	case key.Matches(msg, k.Verify) && v.busy == "":
		return x.verifySkill()
	case key.Matches(msg, k.Dir) && v.busy == "":
		return x.readSkillDir()
	case msg.String() == "pgup" || msg.String() == "pgdown":
		step := max(x.h/2, 1)
		if msg.String() == "pgup" {
			step = -step
		}
		v.scroll = max(v.scroll+step, 0)
	default:
		if m, ok := nav.Of(msg, x.nav, len(v.files)); ok {
			v.cur = m.Apply(v.cur, len(v.files))
			return nil
		}
		return errorCmd(msg.String() + " is not a key of the skill view: ? lists them")
	}
	return nil
}

// readSkillFile reads one file, or lists a subdirectory.
func (x *Explorer) readSkillFile(row skillRow) tea.Cmd {
	c, err := x.skillsClient()
	if err != nil {
		return errorCmd(err.Error())
	}
	v, ctx := x.skill, x.d.Context()
	gen := v.gen
	if row.mime == mcp.MimeDirectory {
		v.busy = mcp.MethodResourcesDirectoryRead + " " + row.uri
		return func() tea.Msg {
			entries, err := c.ReadDirectory(ctx, row.uri)
			return skillDirMsg{gen: gen, entries: entries, err: err}
		}
	}
	v.busy = mcp.MethodResourcesRead + " " + row.uri
	return func() tea.Msg {
		f, err := c.ReadFile(ctx, row.uri)
		return skillFileMsg{gen: gen, file: f, err: err}
	}
}

// verifySkill verifies the open skill.
func (x *Explorer) verifySkill() tea.Cmd {
	c, err := x.skillsClient()
	if err != nil {
		return errorCmd(err.Error())
	}
	v, ctx := x.skill, x.d.Context()
	gen, s := v.gen, v.e.skill
	v.busy = "verifying"
	return func() tea.Msg {
		rep, err := c.Verify(ctx, s)
		return skillVerifiedMsg{gen: gen, report: rep, err: err}
	}
}

// readSkillDir lists the skill's directory (skill://NAME).
func (x *Explorer) readSkillDir() tea.Cmd {
	dir := skills.Dir(x.skill.e.skill.URI)
	if dir == "" {
		return errorCmd(fmt.Sprintf("%s is no skill://…/SKILL.md: no directory to list", x.skill.e.skill.URI))
	}
	return x.readSkillFile(skillRow{uri: dir, mime: mcp.MimeDirectory})
}

// current is the open skill when msg's generation is its own.
func (x *Explorer) current(gen int) *skillView {
	if x.mode != modeSkill || x.skill == nil || x.skill.gen != gen {
		return nil
	}
	return x.skill
}

// skillFileRead shows a file read.
func (x *Explorer) skillFileRead(msg skillFileMsg) {
	v := x.current(msg.gen)
	if v == nil {
		return
	}
	v.busy, v.err = "", msg.err
	if msg.err != nil {
		return
	}
	v.shown, v.scroll = msg.file.URI, 0
	if skills.IsText(msg.file.Bytes) {
		v.text = string(msg.file.Bytes)
	} else {
		v.text = fmt.Sprintf("%s of binary data (%s)", look.ByteSize(int64(len(msg.file.Bytes))), msg.file.MimeType)
	}
}

// skillVerified marks each file with what the verification found.
func (x *Explorer) skillVerified(msg skillVerifiedMsg) {
	v := x.current(msg.gen)
	if v == nil {
		return
	}
	rep := msg.report
	v.busy, v.err, v.report = "", msg.err, &rep
	if v.dir && !v.e.skill.Resources.Dynamic {
		v.files, v.dir, v.cur = skillRows(v.e), false, 0
	}
	for i := range v.files {
		for _, f := range rep.Files {
			if f.URI == v.files[i].uri {
				v.files[i].state, v.files[i].reason = f.State, f.Reason
			}
		}
	}
}

// skillRows are the rows of a skill's listed files.
func skillRows(e entry) []skillRow {
	var rows []skillRow
	for _, f := range e.skill.Resources.Files {
		size := "?"
		if f.Size != nil {
			size = look.ByteSize(*f.Size)
		}
		rows = append(rows, skillRow{uri: f.URI, size: size, digest: f.Digest})
	}
	return rows
}

// skillDirRead shows a directory's entries in place of the files.
func (x *Explorer) skillDirRead(msg skillDirMsg) {
	v := x.current(msg.gen)
	if v == nil {
		return
	}
	v.busy, v.err = "", msg.err
	if msg.err != nil {
		return
	}
	v.files, v.dir, v.cur = nil, true, 0
	for _, e := range msg.entries {
		v.files = append(v.files, skillRow{uri: e.URI, mime: e.MimeType})
	}
}
