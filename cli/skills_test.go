package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// verifyDoc is the JSON of skills --verify.
type verifyDoc struct {
	Skills []skills.Report `json:"skills"`
}

// mcpscope skills lists the demo's skills in both eras, --verify verifies
// them, --skill picks one.
func TestSkillsCommandDemo(t *testing.T) {
	t.Parallel()
	url := screentest.ServeDemoHTTP(t, demo.Options{})
	for _, era := range [][]string{nil, {legacy}} {
		r := mcpscope(t, append(append([]string{"skills"}, era...), url)...)
		r.mustExit(t, ExitOK)
		var list struct {
			Skills []json.RawMessage `json:"skills"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Skills) != 2 || strings.Contains(r.stderr, "advertise") {
			t.Fatalf("%v: %v\nstdout %s\nstderr %s", era, err, r.stdout, r.stderr)
		}
		r = mcpscope(t, append(append([]string{"skills", "--verify"}, era...), url)...)
		r.mustExit(t, ExitOK)
		var doc verifyDoc
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Skills) != 2 {
			t.Fatalf("%v: %v\n%s", era, err, r.stdout)
		}
		for _, rep := range doc.Skills {
			if rep.Outcome != skills.Verified {
				t.Errorf("%v: %s %s: %s", era, rep.Name, rep.Outcome, rep.Reason)
			}
		}
	}
	r := mcpscope(t, "skills", "--format", "text", "--skill", "release-notes", url)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "skill://release-notes/references/STYLE.md") || !strings.Contains(r.stdout, "sha256:") {
		t.Errorf("--skill release-notes:\n%s", r.stdout)
	}
	r = mcpscope(t, "skills", "--format", "text", url)
	if r.code != ExitOK || !strings.Contains(r.stdout, "release-notes") || !strings.Contains(r.stdout, "FILES") {
		t.Errorf("text listing:\n%s", r.stdout)
	}
	r = mcpscope(t, "skills", "--skill", "nope", url)
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "release-notes, commit-message") {
		t.Errorf("unknown skill: %s", r.stderr)
	}
}

// A tampered SKILL.md fails verification with exit 1, naming the file,
// and the rest of that skill is read no further; the other skill passes.
func TestSkillsVerifyTampered(t *testing.T) {
	t.Parallel()
	for _, mode := range demo.SkillTampers {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			r := mcpscope(t, "skills", "--verify", screentest.ServeDemoHTTP(t, demo.Options{SkillTamper: mode}))
			r.mustExit(t, ExitRPCError)
			var doc verifyDoc
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Skills) != 2 {
				t.Fatalf("%v\n%s", err, r.stdout)
			}
			bad, good := doc.Skills[0], doc.Skills[1]
			if bad.Outcome != skills.Failed || bad.File != "skill://release-notes/SKILL.md" || good.Outcome != skills.Verified {
				t.Errorf("reports %+v", doc.Skills)
			}
			for _, f := range bad.Files[1:] {
				if f.State != skills.FileUnread {
					t.Errorf("%s of the failed skill: %s", f.URI, f.State)
				}
			}
			if !strings.Contains(r.stderr, "1 of 2 skills failed verification") {
				t.Errorf("stderr: %s", r.stderr)
			}
		})
	}
}

// Against a server without the extension (the TypeScript reference
// server), skills warns that it is not advertised and exits 1 with the
// server's refusal.
func TestSkillsCommandNotAdvertised(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, withTarget(peertest.TSEverything(t, "stdio"), "skills")...)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, "does not advertise the io.modelcontextprotocol/skills extension") || !strings.Contains(r.stderr, "skills/list") {
		t.Errorf("stderr: %s", r.stderr)
	}
}
