package resulttext

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	pngenc "image/png"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestImageSizeAndClipDuration(t *testing.T) {
	var pic bytes.Buffer
	if err := pngenc.Encode(&pic, image.NewGray(image.Rect(0, 0, 7, 3))); err != nil {
		t.Fatal(err)
	}
	clip := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	for _, v := range []uint32{16, 1 | 1<<16, 4000, 8000, 2 | 16<<16} {
		clip = binary.LittleEndian.AppendUint32(clip, v)
	}
	clip = append(clip, "data"...)
	clip = binary.LittleEndian.AppendUint32(clip, 2000)
	clip = append(clip, make([]byte, 2000)...)
	raw := `{"content":[{"type":"image","mimeType":"image/png","data":"` + base64.StdEncoding.EncodeToString(pic.Bytes()) + `"},
		{"type":"audio","mimeType":"audio/wav","data":"` + base64.StdEncoding.EncodeToString(clip) + `"},
		{"type":"audio","mimeType":"audio/mpeg","data":"AAAA"},
		{"type":"resource","resource":{"uri":"test://p.png","mimeType":"image/png","blob":"` + base64.StdEncoding.EncodeToString(pic.Bytes()) + `"}}]}`
	got := Result(mcp.MethodToolsCall, []byte(raw), 80)
	want := []string{"[image image/png 7×3 ", "[audio audio/wav 0.25 s 2.0 KiB]", "[audio audio/mpeg 3 B]", "[resource test://p.png image/png 7×3 "}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%q missing from\n%s", w, got)
		}
	}
}
