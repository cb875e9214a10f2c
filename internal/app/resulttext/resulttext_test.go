package resulttext

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// hostile is server text that would act on a terminal printed raw: a
// clear-screen, a window title, a C1 CSI and a bidi override, with wide
// runes around them.
const hostile = "日本語\x1b[2J\x1b]0;pwned\x07 \u009b31m\u202eevil"

// png is the bytes of a tiny image, sent base64 encoded.
var png = []byte("\x89PNG\r\n\x1a\nnot really an image but 40 bytes long....")

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestToolResultGolden(t *testing.T) {
	img := base64.StdEncoding.EncodeToString(png)
	raw := `{"content":[
		{"type":"text","text":` + quote("first line\n"+hostile+"\n\tindented") + `},
		{"type":"image","mimeType":"image/png","data":"` + img + `"},
		{"type":"audio","mimeType":` + quote("audio/wav"+hostile) + `,"data":"UklGRiYAAABXQVZF"},
		{"type":"image","mimeType":"image/png","data":"not base64!"},
		{"type":"resource_link","uri":"file:///srv/a.txt","name":` + quote(hostile) + `,"mimeType":"text/plain","size":2048},
		{"type":"resource","resource":{"uri":"test://embedded","mimeType":"text/plain","text":"embedded text"}},
		{"type":"resource","resource":{"uri":"test://blob","mimeType":"application/octet-stream","blob":"AAECAw=="}},
		{"type":"ref/stream","streamTag":7,"mimeType":"video/mp4","size":1048576},
		{"type":"hologram","data":{"x":1}},
		"not an object"
	],"structuredContent":{"shown":"after the content"}}`
	goldentest.Check(t, "tool-result", Result(mcp.MethodToolsCall, []byte(raw), 80))
}

func TestToolResultStructuredAndError(t *testing.T) {
	got := Result(mcp.MethodToolsCall, []byte(`{"content":[{"type":"image","mimeType":"image/png","data":"AAAA"}],"structuredContent":{"t":`+quote(hostile)+`,"n":[1,2]},"isError":true}`), 80)
	goldentest.Check(t, "tool-structured-error", got)
	if got := Result(mcp.MethodToolsCall, []byte(`{"content":[],"isError":true}`), 80); got != "error: the tool reported an error and sent no content\n" {
		t.Errorf("isError without content: %q", got)
	}
	// A result without a content array (a task) is shown as JSON.
	if got := Result(mcp.MethodToolsCall, []byte(`{"task":{"taskId":"t1"}}`), 80); got != "{\n  \"task\": {\n    \"taskId\": \"t1\"\n  }\n}\n" {
		t.Errorf("task: %q", got)
	}
}

// With the tool's outputSchema, the text says how structuredContent checks
// against it, or why it was not checked; structuredContent that is not an
// object is said to be wrong.
func TestToolResultChecksOutputSchema(t *testing.T) {
	res := []byte(`{"content":[{"type":"text","text":"{\"t\":1}"}],"structuredContent":{"t":1}}`)
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"t":{"type":"number"}}}`: "valid against outputSchema\n",
		`{"type":"object","properties":{"t":{"type":"string"}}}`: "  $.t: must be a string\n",
		`{"$ref":"https://example.com/s.json"}`:                  "outputSchema not checked: ",
	} {
		if got := ToolResult(res, 80, json.RawMessage(schema), false); !strings.Contains(got, want) {
			t.Errorf("%s: no %q in\n%s", schema, want, got)
		}
	}
	if got := ToolResult([]byte(`{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":[1,2]}`), 80, nil, false); !strings.HasSuffix(got,
		"structuredContent must be an object (got an array)\n") {
		t.Errorf("array:\n%s", got)
	}
}

func TestPromptAndReadGolden(t *testing.T) {
	prompt := `{"description":` + quote("A prompt\n"+hostile) + `,"messages":[
		{"role":"user","content":{"type":"text","text":"What is in\nthis picture?"}},
		{"role":"user","content":{"type":"image","mimeType":"image/jpeg","data":"/9j/4AAQ"}},
		{"role":` + quote("assistant"+hostile) + `,"content":{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"resource text"}}}
	]}`
	read := `{"contents":[
		{"uri":"test://text","mimeType":"text/markdown","text":"# Title\n\nbody ` + "\\u001b[31m" + `red"},
		{"uri":"test://blob","mimeType":"image/png","blob":"` + base64.StdEncoding.EncodeToString(png) + `"}
	]}`
	single := `{"contents":[{"uri":"test://text","text":"just the text"}]}`
	got := Result(mcp.MethodPromptsGet, []byte(prompt), 80) + "---\n" + Result(mcp.MethodResourcesRead, []byte(read), 80) +
		"---\n" + Result(mcp.MethodResourcesRead, []byte(single), 80)
	goldentest.Check(t, "prompt-read", got)
}

func TestListingGolden(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"echo","title":"Echo Tool","description":"Echoes back the input string","inputSchema":{}}`),
		json.RawMessage(`{"name":"日本語ツール","description":"Wide runes keep the columns aligned\nsecond line never shown"}`),
		json.RawMessage(`{"name":` + quote("evil"+hostile) + `,"description":` + quote(strings.Repeat("a very long description ", 20)) + `}`),
	}
	resources := []json.RawMessage{json.RawMessage(`{"uri":"test://static-text","name":"static-text","mimeType":"text/plain","description":"A static text resource"}`)}
	prompts := []json.RawMessage{json.RawMessage(`{"name":"args-prompt","arguments":[{"name":"city","required":true},{"name":"state"}],"description":"Two arguments"}`)}
	got := Listing([]string{"tools"}, [][]json.RawMessage{tools}, 80) + "---\n" +
		Listing([]string{"resources", "resourceTemplates"}, [][]json.RawMessage{resources, nil}, 80) + "---\n" +
		Listing([]string{"prompts"}, [][]json.RawMessage{prompts}, 0) + "---\n" +
		Listing([]string{"tools"}, [][]json.RawMessage{tools}, 30)
	goldentest.Check(t, "listing", got)
}

// A listing fits the width it is given: no line is wider, whatever the
// server's descriptions.
func TestListingFitsTheWidth(t *testing.T) {
	tools := []json.RawMessage{json.RawMessage(`{"name":"t","description":` + quote(strings.Repeat("寛", 500)) + `}`)}
	for _, w := range []int{20, 40, 80, 200} {
		for _, l := range strings.Split(Listing([]string{"tools"}, [][]json.RawMessage{tools}, w), "\n") {
			if n := len([]rune(l)) + strings.Count(l, "寛"); n > w {
				t.Errorf("width %d: a line of %d cells: %q", w, n, l)
			}
		}
	}
}

func TestListPageShowsNextCursor(t *testing.T) {
	got := Result(mcp.MethodToolsList, []byte(`{"tools":[{"name":"a"}],"nextCursor":"c2"}`), 0)
	if got != "NAME\na\nnext cursor: \"c2\"\n" {
		t.Errorf("%q", got)
	}
}

// A huge text item is cut at TextMax and says how much was left out.
func TestHugeTextIsBounded(t *testing.T) {
	raw := `{"content":[{"type":"text","text":"` + strings.Repeat("x", 3*TextMax) + `"}]}`
	got := Result(mcp.MethodToolsCall, []byte(raw), 80)
	if len(got) > TextMax+100 || !strings.Contains(got, "not shown)") {
		t.Errorf("a %d-byte text rendered as %d bytes, ending %q", 3*TextMax, len(got), got[len(got)-60:])
	}
}

func TestUnknownMethodIsJSON(t *testing.T) {
	if got := Result("completion/complete", []byte(`{"completion":{"values":["a"]}}`), 80); got != "{\n  \"completion\": {\n    \"values\": [\n      \"a\"\n    ]\n  }\n}\n" {
		t.Errorf("%q", got)
	}
}

// A UI resource's CSP and permissions head its text; domains a server
// sends with escape sequences are shown escaped.
func TestReadAppResourceShowsCSP(t *testing.T) {
	read := `{"contents":[{"uri":"ui://w/view.html","mimeType":"text/html;profile=mcp-app","text":"<p>hi</p>",
		"_meta":{"ui":{"csp":{"connectDomains":["https://api.example",` + quote(hostile) + `],"frameDomains":["https://f.example"]},
		"permissions":{"microphone":{},"clipboardWrite":{}},"domain":"a.example"}}}]}`
	goldentest.Check(t, "read-app", Result(mcp.MethodResourcesRead, []byte(read), 80))
}

// A wrong-typed member of a UI resource's app metadata is a problem line;
// the permissions beside it are still shown.
func TestReadAppResourceShowsProblems(t *testing.T) {
	read := `{"contents":[{"uri":"ui://w","text":"<p>hi</p>","_meta":{"ui":{"csp":{"connectDomains":"https://a"},
		"permissions":{"camera":{}},"prefersBorder":"yes"}}}]}`
	out := Result(mcp.MethodResourcesRead, []byte(read), 80)
	for _, want := range []string{"app problem: _meta.ui.csp.connectDomains is not an array of strings (a string)\n",
		"app problem: _meta.ui.prefersBorder is not a boolean (a string)\n", "app permissions: camera\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// The tools table has an APP column when a tool names a UI resource.
func TestListingMarksAppTools(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"weather","description":"Weather","_meta":{"ui":{"resourceUri":"ui://w/view.html"}}}`),
		json.RawMessage(`{"name":"legacy","description":"Old key","_meta":{"ui/resourceUri":"ui://old/view.html"}}`),
		json.RawMessage(`{"name":"plain","description":"No app"}`),
	}
	goldentest.Check(t, "listing-apps", Listing([]string{"tools"}, [][]json.RawMessage{tools}, 100))
}
