package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/skills"
)

// The skill the stub "skills-one-bad" serves whole, beside an entry that
// is not a skill (a size past int64) and a skills/get that answers
// another skill than the one asked.
const (
	stubSkillURI  = "skill://good/SKILL.md"
	stubSkillBody = "---\nname: good\ndescription: d\nmetadata:\n  updated: 2025-06-01\n  mode: 0644\n---\nbody\n"
)

func init() {
	sum := sha256.Sum256([]byte(stubSkillBody))
	good := fmt.Sprintf(`{"uri":%q,"frontmatter":{"name":"good","description":"d","metadata":{"updated":"2025-06-01","mode":644}},`+
		`"resources":[{"uri":%q,"digest":"sha256:%s","size":%d}]}`, stubSkillURI, stubSkillURI, hex.EncodeToString(sum[:]), len(stubSkillBody))
	bad := `{"uri":"skill://big/SKILL.md","frontmatter":{"name":"big","description":"d"},` +
		`"resources":[{"uri":"skill://big/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `","size":1e20}]}`
	stubRequestHooks["skills-one-bad"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		switch method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{},`+
				`"extensions":{"io.modelcontextprotocol/skills":{}}},"serverInfo":{"name":"stub","version":"1"}}}`+"\n", id)
		case "skills/list":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"skills":[%s,%s]}}`+"\n", id, good, bad)
		case "skills/get":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"skill":%s}}`+"\n", id, good)
		case "resources/read":
			body, _ := json.Marshal(stubSkillBody)
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%q,"text":%s}]}}`+"\n", id, stubSkillURI, body)
		default:
			return false
		}
		out.Flush()
		return true
	}
}

// One entry that is not a skill loses none of the others: the listing and
// the verification print every entry, the good skill verifies (its front
// matter read as YAML 1.2 reads it), the bad one is a failed row, and the
// command exits 5 after printing.
func TestSkillsOneMalformedEntry(t *testing.T) {
	t.Parallel()
	target := stubTarget(t, "skills-one-bad")
	r := mcpscope(t, append([]string{"skills"}, target...)...)
	r.mustExit(t, ExitProtocol)
	var list struct {
		Skills []json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Skills) != 2 || !strings.Contains(r.stderr, "skills[1]") {
		t.Errorf("listing: %v\nstdout %s\nstderr %s", err, r.stdout, r.stderr)
	}
	r = mcpscope(t, append([]string{"skills", "--verify"}, target...)...)
	r.mustExit(t, ExitProtocol)
	var doc verifyDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Skills) != 2 {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	good, bad := doc.Skills[0], doc.Skills[1]
	if good.Outcome != skills.Verified || bad.Outcome != skills.Failed || bad.URI != "skill://big/SKILL.md" || !strings.Contains(bad.Reason, "not a skill") {
		t.Errorf("reports %+v\nstderr %s", doc.Skills, r.stderr)
	}
}

// --skill with a URI verifies only the skill asked for: a skills/get that
// answers another is a protocol violation.
func TestSkillsGetAnswersAnotherSkill(t *testing.T) {
	t.Parallel()
	target := stubTarget(t, "skills-one-bad")
	r := mcpscope(t, append([]string{"skills", "--verify", "--skill", "skill://other/SKILL.md"}, target...)...)
	r.mustExit(t, ExitProtocol)
	if !strings.Contains(r.stderr, "skill://good/SKILL.md") || strings.Contains(r.stdout, "verified") {
		t.Errorf("stdout %s\nstderr %s", r.stdout, r.stderr)
	}
	r = mcpscope(t, append([]string{"skills", "--verify", "--skill", stubSkillURI}, target...)...)
	r.mustExit(t, ExitOK)
}
