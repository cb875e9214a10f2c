package skills

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// fakeServer answers resources/read from files and records the reads.
type fakeServer struct {
	files map[string]string // uri → body; a body "!" answers an error
	blobs map[string]bool   // uris served as blobs
	reads []string
}

func (f *fakeServer) Call(_ context.Context, method string, params any, _ ...client.CallOption) (json.RawMessage, error) {
	if method != mcp.MethodResourcesRead {
		return nil, fmt.Errorf("unexpected %s", method)
	}
	uri := params.(mcp.ReadResourceParams).URI
	f.reads = append(f.reads, uri)
	body, ok := f.files[uri]
	if !ok || body == "!" {
		return nil, &client.RPCError{Method: method, Err: &jsonrpc.Error{Code: -32002, Message: "Resource not found"}}
	}
	c := map[string]string{"uri": uri, "text": body}
	if f.blobs[uri] {
		c = map[string]string{"uri": uri, "blob": base64.StdEncoding.EncodeToString([]byte(body))}
	}
	return json.Marshal(map[string]any{"contents": []any{c}})
}

func (f *fakeServer) ListAll(context.Context, string, string, any, ...client.CallOption) ([]json.RawMessage, error) {
	return nil, fmt.Errorf("not listed here")
}

const (
	manifestURI = "skill://pdf/SKILL.md"
	formsURI    = "skill://pdf/references/FORMS.md"
	manifest    = "---\nname: pdf\ndescription: Fill PDF forms\nmetadata:\n  level: 2\n---\n\nBody.\n"
	forms       = "Forms.\n"
)

// entryOf is the skills/list entry that matches bodies exactly.
func entryOf(fm string, bodies map[string]string, order ...string) mcp.Skill {
	s := mcp.Skill{URI: manifestURI, Frontmatter: json.RawMessage(fm)}
	for _, uri := range order {
		sum := sha256.Sum256([]byte(bodies[uri]))
		n := int64(len(bodies[uri]))
		s.Resources.Files = append(s.Resources.Files, mcp.SkillFile{URI: uri, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: &n})
	}
	return s
}

const goodFM = `{"name":"pdf","description":"Fill PDF forms","metadata":{"level":2}}`

func TestVerify(t *testing.T) {
	good := map[string]string{manifestURI: manifest, formsURI: forms}
	cases := []struct {
		name    string
		entry   func() mcp.Skill
		serve   map[string]string
		outcome Outcome
		reason  string
		reads   int
	}{
		{"verified", func() mcp.Skill { return entryOf(goodFM, good, formsURI, manifestURI) }, good, Verified, "", 2},
		{"digest", func() mcp.Skill { return entryOf(goodFM, good, manifestURI, formsURI) },
			map[string]string{manifestURI: strings.Replace(manifest, "Body.", "Evil.", 1), formsURI: forms}, Failed, "the digest of the bytes read", 1},
		{"size", func() mcp.Skill { return entryOf(goodFM, good, manifestURI, formsURI) },
			map[string]string{manifestURI: manifest + "more\n", formsURI: forms}, Failed, "bytes read where the entry says", 1},
		{"frontmatter differs", func() mcp.Skill {
			return entryOf(`{"name":"pdf","description":"Steal","metadata":{"level":2}}`, good, manifestURI, formsURI)
		}, good, Failed, `"description" differs`, 1},
		{"frontmatter field missing from the entry", func() mcp.Skill {
			return entryOf(`{"name":"pdf","description":"Fill PDF forms"}`, good, manifestURI, formsURI)
		}, good, Failed, `has "metadata", the entry's does not`, 1},
		{"second file tampered", func() mcp.Skill { return entryOf(goodFM, good, manifestURI, formsURI) },
			map[string]string{manifestURI: manifest, formsURI: "Other!\n"}, Failed, "the digest", 2},
		{"second file refused", func() mcp.Skill { return entryOf(goodFM, good, manifestURI, formsURI) },
			map[string]string{manifestURI: manifest, formsURI: "!"}, Incomplete, "Resource not found", 2},
		{"SKILL.md not listed", func() mcp.Skill { return entryOf(goodFM, good, formsURI) }, good, Failed, "do not list its own SKILL.md", 0},
		{"name is not the directory", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.URI = "skill://other/SKILL.md"
			return s
		}, good, Failed, "", 0},
		{"bad name", func() mcp.Skill { return entryOf(`{"name":"P--df","description":"x"}`, good, manifestURI) }, good, Failed, "breaks the rule", 0},
		{"file outside the skill", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.Resources.Files = append(s.Resources.Files, mcp.SkillFile{URI: "skill://pdf/../etc/passwd", Digest: s.Resources.Files[0].Digest, Size: s.Resources.Files[0].Size})
			return s
		}, good, Failed, "not inside", 0},
		{"file outside the skill by an encoded ..", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.Resources.Files = append(s.Resources.Files, mcp.SkillFile{URI: "skill://pdf/%2e%2e/other/SKILL.md", Digest: s.Resources.Files[0].Digest, Size: s.Resources.Files[0].Size})
			return s
		}, good, Failed, "escape %2E", 0},
		{"the skill's own uri climbs out", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.URI = "skill://x/../pdf/SKILL.md"
			s.Resources.Files[0].URI = s.URI
			return s
		}, good, Failed, "the skill's uri is refused", 0},
		{"no size", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.Resources.Files[0].Size = nil
			return s
		}, good, Failed, "no size", 0},
		{"uppercase digest", func() mcp.Skill {
			s := entryOf(goodFM, good, manifestURI)
			s.Resources.Files[0].Digest = strings.ToUpper(s.Resources.Files[0].Digest)
			return s
		}, good, Failed, "64 lowercase hex", 0},
		{"dynamic", func() mcp.Skill {
			return mcp.Skill{URI: manifestURI, Frontmatter: json.RawMessage(goodFM), Resources: mcp.SkillResources{Dynamic: true}}
		},
			good, Unverifiable, "dynamic", 0},
		{"no front matter", func() mcp.Skill {
			return entryOf(goodFM, map[string]string{manifestURI: "# no front matter\n"}, manifestURI)
		}, map[string]string{manifestURI: "# no front matter\n"}, Failed, `does not start with a line "---"`, 1},
		{"reserved metadata key", func() mcp.Skill {
			body := "---\nname: pdf\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n"
			return entryOf(`{"name":"pdf","description":"d","metadata":{"io.modelcontextprotocol/x":1}}`, map[string]string{manifestURI: body}, manifestURI)
		}, map[string]string{manifestURI: "---\nname: pdf\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n"}, Failed, "reserved key", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := &fakeServer{files: c.serve}
			rep, err := (&Client{Session: srv}).Verify(context.Background(), c.entry())
			if err != nil {
				t.Fatal(err)
			}
			if rep.Outcome != c.outcome || !strings.Contains(rep.Reason, c.reason) {
				t.Errorf("outcome %s (%s), want %s (%s)", rep.Outcome, rep.Reason, c.outcome, c.reason)
			}
			if len(srv.reads) != c.reads {
				t.Errorf("read %v, want %d reads", srv.reads, c.reads)
			}
			if len(srv.reads) > 0 && srv.reads[0] != manifestURI {
				t.Errorf("read %s first, want SKILL.md", srv.reads[0])
			}
		})
	}
}

// A file larger than MaxFile is not kept: the skill is incomplete.
func TestVerifyBoundsAFile(t *testing.T) {
	good := map[string]string{manifestURI: manifest, formsURI: forms}
	srv := &fakeServer{files: good, blobs: map[string]bool{formsURI: true}}
	c := &Client{Session: srv, MaxFile: int64(len(manifest))}
	big := strings.Repeat("x", len(manifest)+1)
	srv.files[formsURI] = big
	rep, err := c.Verify(context.Background(), entryOf(goodFM, map[string]string{manifestURI: manifest, formsURI: big}, manifestURI, formsURI))
	if err != nil || rep.Outcome != Incomplete || rep.File != formsURI || !strings.Contains(rep.Reason, "larger than") {
		t.Errorf("report %+v, err %v", rep, err)
	}
}

// uriPath refuses every way a URI could name a file other than the one
// its text seems to, and insideProblem keeps a file to its skill.
func TestSkillURIInside(t *testing.T) {
	for uri, ok := range map[string]bool{
		"skill://pdf/references/FORMS.md": true, "skill://pdf/a%20b.md": true,
		"skill://pdf/%2e%2e/good/SKILL.md": false, "skill://pdf/%2E%2E/x": false, "skill://pdf/a%2fb": false,
		"skill://pdf/a%5Cb": false, `skill://pdf/a\b`: false, "skill://pdf/../x": false, "skill://pdf/./x": false,
		"skill://pdf//x": false, "skill://pdf/x?y": false, "skill://pdf/x#y": false, "skill://u@pdf/x": false,
		"skill://pdfx/SKILL.md": false, "skill://pdf": false, "file://pdf/x": false, "skill://pdf/x/..": false,
	} {
		if got := insideProblem("pdf", uri); (got == "") != ok {
			t.Errorf("insideProblem(pdf, %q) = %q", uri, got)
		}
	}
}

func TestParseFrontmatter(t *testing.T) {
	fm, err := ParseFrontmatter([]byte("---\r\nname: a\r\ndescription: b\r\nn: 3\r\n---\r\nbody"))
	if err != nil || fm["name"] != "a" || fm["n"] != float64(3) {
		t.Errorf("%v %v", fm, err)
	}
	for _, bad := range []string{"", "--- \nname: a\n---\n", "---\nname: a\n", "---\n---\n", "---\n: [\n---\n", "---\n- a\n---\n"} {
		if _, err := ParseFrontmatter([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The front matter reads as the YAML 1.2 core schema reads it (what the
// conformance harness's npm yaml gives), so that a correct entry verifies.
func TestParseFrontmatterCore(t *testing.T) {
	for yml, want := range map[string]string{
		"when: 2024-01-01":        `{"when":"2024-01-01"}`,
		"x: yes":                  `{"x":"yes"}`,
		"x: 0o17":                 `{"x":15}`,
		"x: 017":                  `{"x":17}`,
		"x: 08":                   `{"x":8}`,
		"x: 0x1F":                 `{"x":31}`,
		"x: +12":                  `{"x":12}`,
		"x: .5":                   `{"x":0.5}`,
		"x: 1e3":                  `{"x":1000}`,
		"x: 1_000":                `{"x":"1_000"}`,
		"x: !!str 12":             `{"x":"12"}`,
		"x: '12'":                 `{"x":"12"}`,
		"x: [~, null, TRUE]":      `{"x":[null,null,true]}`,
		"<<: {name: a}":           `{"\u003c\u003c":{"name":"a"}}`,
		"~: x":                    `{"":"x"}`,
		"1: a\ntrue: b":           `{"1":"a","true":"b"}`,
		"a: &x [1]\nb: *x":        `{"a":[1],"b":[1]}`,
		"metadata:\n  mode: 0644": `{"metadata":{"mode":644}}`,
	} {
		fm, err := ParseFrontmatter([]byte("---\n" + yml + "\n---\n"))
		got, _ := json.Marshal(fm)
		if err != nil || string(got) != want {
			t.Errorf("%q: %s %v, want %s", yml, got, err, want)
		}
	}
	for _, bad := range []string{"a: 1\na: 2", "x: .inf", "[a]: 1", "x: 1e999", "&a [*a]", "a: &a [*a]"} {
		if fm, err := ParseFrontmatter([]byte("---\n" + bad + "\n---\n")); err == nil {
			t.Errorf("%q parsed: %v", bad, fm)
		}
	}
}

func TestDirAndName(t *testing.T) {
	for uri, want := range map[string]string{"skill://a/SKILL.md": "skill://a", "skill://x/y/SKILL.md": "skill://x/y",
		"skill:///SKILL.md": "", "file://a/SKILL.md": "", "skill://a/README.md": ""} {
		if got := Dir(uri); got != want {
			t.Errorf("Dir(%q) = %q, want %q", uri, got, want)
		}
	}
	for name, ok := range map[string]bool{"a": true, "pdf-forms": true, "a--b": false, "-a": false, "a-": false, "A": false,
		strings.Repeat("a", 64): true, strings.Repeat("a", 65): false, "": false} {
		if (NameProblem(name) == "") != ok {
			t.Errorf("NameProblem(%q) = %q", name, NameProblem(name))
		}
	}
}

// FuzzParseFrontmatter: no SKILL.md panics the parser, and what parses
// has a map of fields.
func FuzzParseFrontmatter(f *testing.F) {
	for _, s := range []string{manifest, "---\n---\n", "---\na: [1, {b: c}]\n---\n", "---\n&a [*a]\n---\n", "nothing"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fm, err := ParseFrontmatter(b)
		if err == nil && fm == nil {
			t.Fatal("parsed to nil")
		}
		if err == nil {
			_ = frontmatterProblem(fm, json.RawMessage(goodFM))
		}
	})
}

// FuzzSkillURI: no URI a server lists panics the check, and a URI it
// takes as inside a skill has a clean path under it, without escapes.
func FuzzSkillURI(f *testing.F) {
	for _, s := range []string{formsURI, "skill://pdf/%2e%2e/x", `skill://pdf/a\b`, "skill://pdf//x", "skill://pdf/x?y#z", "skill://%zz/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		if insideProblem("pdf", uri) != "" {
			return
		}
		p, err := uriPath(uri)
		if err != nil || !strings.HasPrefix(p, "pdf/") || strings.Contains(p, "..") && strings.Contains("/"+p+"/", "/../") {
			t.Fatalf("%q taken as inside: %q, %v", uri, p, err)
		}
	})
}
