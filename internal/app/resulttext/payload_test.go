package resulttext

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestPayload(t *testing.T) {
	img := base64.StdEncoding.EncodeToString(png)
	for _, tc := range []struct {
		method, raw string
		want        []byte
	}{
		{mcp.MethodToolsCall, `{"content":[{"type":"text","text":"here"},{"type":"image","mimeType":"image/png","data":"` + img + `"}]}`, png},
		{mcp.MethodToolsCall, `{"content":[{"type":"audio","data":"` + base64.RawStdEncoding.EncodeToString(png) + `"}]}`, png},
		{mcp.MethodToolsCall, `{"content":[{"type":"resource","resource":{"uri":"u","text":"embedded"}}]}`, []byte("embedded")},
		{mcp.MethodResourcesRead, `{"contents":[{"uri":"u","blob":"` + img + `"}]}`, png},
		{mcp.MethodResourcesRead, `{"contents":[{"uri":"u","text":"日本語"}]}`, []byte("日本語")},
		{mcp.MethodPromptsGet, `{"messages":[{"role":"user","content":{"type":"text","text":"t"}},{"role":"user","content":{"type":"image","data":"` + img + `"}}]}`, png},
		// A tool's one text content is written exactly: a tab, a control, 2 MB.
		{mcp.MethodToolsCall, `{"content":[{"type":"text","text":"col1\tcol2\n\u001b[31m` + strings.Repeat("x", 2<<20) + `\n"}]}`, []byte("col1\tcol2\n\x1b[31m" + strings.Repeat("x", 2<<20) + "\n")},
		{mcp.MethodPromptsGet, `{"messages":[{"role":"user","content":{"type":"text","text":"only"}}]}`, []byte("only")},
	} {
		got, err := Payload(tc.method, []byte(tc.raw))
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s %.200s: %.200q, %v", tc.method, tc.raw, got, err)
		}
	}
}

func TestPayloadNamesWhatTheResultHolds(t *testing.T) {
	for _, tc := range []struct{ method, raw, want string }{
		{mcp.MethodToolsCall, `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"resource_link","uri":"u"}]}`,
			"the result holds no image, audio or resource contents nor a single text content, only 1 resource link, 2 text contents"},
		{mcp.MethodToolsCall, `{"content":[{"type":"image","data":"AA=="},{"type":"audio","data":"AA=="},{"type":"audio","data":"AA=="},{"type":"text","text":"t"}]}`,
			"the result holds 3 contents --raw could write, not one: 2 audio, 1 image (and 1 text content)"},
		{mcp.MethodToolsCall, `{"content":[]}`, "the result holds no content"},
		{mcp.MethodToolsList, `{"tools":[]}`, "the result holds no image, audio or resource contents nor a single text content, only a tools/list result, which has no contents"},
	} {
		_, err := Payload(tc.method, []byte(tc.raw))
		var np *NoPayloadError
		if !errors.As(err, &np) || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.raw, err, tc.want)
		}
	}
	if _, err := Payload(mcp.MethodToolsCall, []byte(`{"content":[{"type":"image","data":"!!!"}]}`)); err == nil {
		t.Error("invalid base64 decoded")
	}
}

// Result cuts a text item past TextMax for a terminal; Uncut, for a
// file, keeps all of it.
func TestUncutKeepsLongText(t *testing.T) {
	long := strings.Repeat("x", TextMax+10)
	raw := []byte(`{"content":[{"type":"text","text":"` + long + `"}]}`)
	if got := Result(mcp.MethodToolsCall, raw, 80); strings.Contains(got, long) {
		t.Error("Result keeps a text item past TextMax")
	}
	if got := Uncut(mcp.MethodToolsCall, raw, 0); got != long+"\n" {
		t.Errorf("Uncut: %d bytes, want %d", len(got), len(long)+1)
	}
}
