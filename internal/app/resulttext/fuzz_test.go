package resulttext

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// FuzzResult renders whatever a server sends as the result of each method
// and of --raw: no panic, and no byte a terminal acts on reaches the text
// (line breaks and tabs apart).
func FuzzResult(f *testing.F) {
	for _, seed := range []string{
		`{"content":[{"type":"text","text":"a\u001b[2Jb"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":true}`,
		`{"content":[{"type":"resource","resource":{"uri":"u","blob":"AA=="}}],"structuredContent":{"a":[1]}}`,
		`{"messages":[{"role":"user","content":{"type":"audio","data":"!!"}}],"description":"d"}`,
		`{"contents":[{"uri":"u","text":"t"},{"uri":"v","blob":"AAAA"}]}`,
		`{"tools":[{"name":"a","title":"b","description":"c\nd"}],"nextCursor":"x"}`,
		`{"resources":[{"uri":"u","name":"n"}]}`, `{"resourceTemplates":[{"uriTemplate":"u/{x}","name":"n"}]}`,
		`{"prompts":[{"name":"p","arguments":[{"name":"a","required":true}]}]}`, `[[[[`, `"\u009b"`,
		`{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a\u001b[2J","description":"d"},"resources":[{"uri":"u","size":3}]}]}`,
	} {
		f.Add([]byte(seed))
	}
	methods := []string{mcp.MethodToolsCall, mcp.MethodPromptsGet, mcp.MethodResourcesRead, mcp.MethodToolsList,
		mcp.MethodResourcesList, mcp.MethodResourceTemplatesList, mcp.MethodPromptsList, mcp.MethodSkillsList, "ping"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, m := range methods {
			for _, w := range []int{0, 20, 80} {
				checkPrintable(t, m, Result(m, raw, w))
				checkPrintable(t, m, Uncut(m, raw, w))
			}
			_, _ = Payload(m, raw)
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) == nil {
			for _, field := range []string{"tools", "resources", "resourceTemplates", "prompts", "skills", "other"} {
				checkPrintable(t, field, Listing([]string{field}, [][]json.RawMessage{items}, 40))
			}
		}
	})
}

func checkPrintable(t *testing.T, what, s string) {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if !termtext.Safe(strings.ReplaceAll(l, "\t", " ")) {
			t.Fatalf("%s: a line a terminal would act on: %q", what, l)
		}
	}
}
