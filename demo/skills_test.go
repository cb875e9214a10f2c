package demo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The demo offers two skills: skills/list describes them, skills/get one
// of them, resources/directory/read their directories (a subdirectory
// marked inode/directory), resources/read their files; initialize
// advertises the extension.
func TestDemoSkills(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	initialized, _ := s.Initialize(nil)
	if _, ok := initialized.Capabilities.Extensions[mcp.ExtensionSkills]; !ok {
		t.Errorf("capabilities %+v do not advertise skills", initialized.Capabilities.Extensions)
	}
	c.Handle(request(t, 1, mcp.MethodSkillsList, nil))
	var list mcp.ListSkillsResult
	if m := r.response(t, 1); m.Error != nil || json.Unmarshal(m.Result, &list) != nil || len(list.Skills) != 2 {
		t.Fatalf("skills/list: %+v %s", m.Error, m.Result)
	}
	c.Handle(request(t, 2, mcp.MethodSkillsGet, map[string]any{"uri": "skill://commit-message/SKILL.md"}))
	var got mcp.GetSkillResult
	if m := r.response(t, 2); m.Error != nil || json.Unmarshal(m.Result, &got) != nil || got.Skill.Named().Name != "commit-message" {
		t.Errorf("skills/get: %+v %s", m.Error, m.Result)
	}
	c.Handle(request(t, 3, mcp.MethodSkillsGet, map[string]any{"uri": "skill://nope/SKILL.md"}))
	if m := r.response(t, 3); m.Error == nil || m.Error.Code != mcp.CodeInvalidParams {
		t.Errorf("skills/get of no skill: %+v", m)
	}
	c.Handle(request(t, 4, mcp.MethodResourcesDirectoryRead, map[string]any{"uri": "skill://release-notes"}))
	var dir mcp.DirectoryReadResult
	if m := r.response(t, 4); m.Error != nil || json.Unmarshal(m.Result, &dir) != nil || len(dir.Resources) != 2 || !dir.Resources[1].IsDirectory() {
		t.Errorf("resources/directory/read: %+v %s", m.Error, m.Result)
	}
	c.Handle(request(t, 5, mcp.MethodResourcesDirectoryRead, map[string]any{"uri": "skill://release-notes/references/"}))
	if m := r.response(t, 5); m.Error != nil || strings.Count(string(m.Result), `"uri"`) != 2 {
		t.Errorf("the references directory: %+v %s", m.Error, m.Result)
	}
	c.Handle(request(t, 6, mcp.MethodResourcesRead, map[string]any{"uri": "skill://release-notes/references/STYLE.md"}))
	if m := r.response(t, 6); m.Error != nil || !strings.Contains(string(m.Result), "Present tense") {
		t.Errorf("resources/read: %+v %s", m.Error, m.Result)
	}
}

// An unknown tamper mode is refused when the server is built.
func TestDemoSkillTamperRefused(t *testing.T) {
	if _, err := New(Options{SandboxRoot: t.TempDir(), SkillTamper: "bogus"}); err == nil || !strings.Contains(err.Error(), "digest, size, frontmatter") {
		t.Errorf("err %v", err)
	}
}
