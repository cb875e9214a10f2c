package explore

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The Skills tab lists the demo's skills; enter shows a skill's files
// without reading any, v verifies it, enter on a file reads that file.
func TestExploreSkills(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	if !x.tabShown(tabSkills) {
		t.Fatal("the demo advertises skills, the tab is hidden")
	}
	r.Press("5")
	if got := names(&x.lists[tabSkills]); strings.Join(got, ",") != "release-notes,commit-message" {
		t.Fatalf("skills %v", got)
	}
	goldentest.CheckPlain(t, "explore_skills", x.Render(120, 6))
	r.Press("enter")
	if x.mode != modeSkill || len(x.skill.files) != 3 {
		t.Fatalf("enter: mode %d, skill %+v", x.mode, x.skill)
	}
	if n := len(screentest.SentRequests(st, mcp.MethodResourcesRead)); n != 0 {
		t.Fatalf("listing and opening a skill read %d files, want none", n)
	}
	goldentest.CheckPlain(t, "explore_skill_files", x.Render(110, 8))
	r.Press("v")
	r.Until("the verification", func() bool { return x.skill.report != nil })
	if x.skill.report.Outcome != skills.Verified || x.skill.files[2].state != skills.FileVerified {
		t.Errorf("verification %+v, files %+v", x.skill.report, x.skill.files)
	}
	r.Press("down", "enter")
	r.Until("the file read", func() bool { return x.skill.shown != "" })
	if s := r.ScreenText(); !strings.Contains(s, "── skill://release-notes/references/STYLE.md ──") || !strings.Contains(s, "Present tense") {
		t.Errorf("the file read is not shown:\n%s", s)
	}
	r.Press("d")
	r.Until("the directory", func() bool { return x.skill.dir && x.skill.busy == "" })
	if len(x.skill.files) != 2 || x.skill.files[1].mime != mcp.MimeDirectory {
		t.Errorf("directory rows %+v", x.skill.files)
	}
	r.Press("esc", "esc")
	if x.mode != modeSkill || x.skill.dir || x.skill.shown != "" {
		t.Errorf("esc esc: mode %d, dir %v, shown %q", x.mode, x.skill.dir, x.skill.shown)
	}
	r.Press("esc")
	if x.mode != modeList {
		t.Errorf("esc on the files: mode %d, want the list", x.mode)
	}
}

// A tampered SKILL.md fails verification in the view, which names the
// file and reads none of the skill's other files.
func TestExploreSkillVerifyFails(t *testing.T) {
	m, r := newModel(t, 110, 20)
	m.host.Sess = screentest.ConnectDemoHTTPWith(t, m.store, demo.Options{SkillTamper: demo.SkillTamperSize})
	x := openExplorerLoaded(t, r)
	r.Press("5", "enter", "v")
	r.Until("the verification", func() bool { return x.skill != nil && x.skill.report != nil })
	if x.skill.report.Outcome != skills.Failed || x.skill.files[0].state != skills.FileFailed || x.skill.files[1].state != skills.FileUnread {
		t.Errorf("verification %+v, files %+v", x.skill.report, x.skill.files)
	}
	if n := len(screentest.SentRequests(m.store, mcp.MethodResourcesRead)); n != 1 {
		t.Errorf("%d files read, want SKILL.md alone", n)
	}
	goldentest.CheckPlain(t, "explore_skill_failed", x.Render(110, 8))
}

// Without the extension advertised the Skills tab is hidden, 5 says why,
// and r asks anyway.
func TestExploreSkillsHiddenUntilAdvertised(t *testing.T) {
	m, x := fixtureExplorer(t, 100, 10)
	if x.tabShown(tabSkills) || strings.Contains(x.Render(100, 3), "Skills") {
		t.Fatalf("skills shown without being advertised:\n%s", x.Render(100, 3))
	}
	if cmd := press(m, "5"); cmd == nil || x.tab == tabSkills {
		t.Error("5 picked the hidden Skills tab without saying why")
	}
	press(m, "left")
	if x.tab != tabPrompts {
		t.Errorf("left from the tools: tab %d, want the prompts", x.tab)
	}
	x.lists[tabSkills].state = listLoading
	if !x.tabShown(tabSkills) {
		t.Error("skills asked for, still hidden")
	}
}
