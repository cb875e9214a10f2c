package resulttext

import (
	"bytes"
	"encoding/base64"
	"errors"
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
	} {
		got, err := Payload(tc.method, []byte(tc.raw))
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s %s: %q, %v", tc.method, tc.raw, got, err)
		}
	}
}

func TestPayloadNamesWhatTheResultHolds(t *testing.T) {
	for _, tc := range []struct{ method, raw, want string }{
		{mcp.MethodToolsCall, `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"resource_link","uri":"u"}]}`,
			"the result holds no image, audio or resource contents, only 1 resource link, 2 text contents"},
		{mcp.MethodToolsCall, `{"content":[{"type":"image","data":"AA=="},{"type":"audio","data":"AA=="},{"type":"audio","data":"AA=="},{"type":"text","text":"t"}]}`,
			"the result holds 3 contents --raw could write, not one: 2 audio, 1 image (and 1 text content)"},
		{mcp.MethodToolsCall, `{"content":[]}`, "the result holds no content"},
		{mcp.MethodToolsList, `{"tools":[]}`, "the result holds no image, audio or resource contents, only a tools/list result, which has no contents"},
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
