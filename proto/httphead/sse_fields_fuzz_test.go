package httphead

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// FuzzSSEEventFields checks that the annotations of any bytes cover them
// exactly, in order, with bounded values, and that they find the lines a
// plain split of the input finds.
func FuzzSSEEventFields(f *testing.F) {
	for _, s := range []string{
		"data: YHOO\ndata: +2\ndata: 10\n\n", ": test stream\n\ndata: first event\nid: 1\n\n",
		"data:second event\nid\n\ndata:  third event", "\xEF\xBB\xBFdata: a\r\n\r\n", "retry: 10\rx\r\r\n",
		"data: a\r\r\n", "\n\r\n\r", ":" + strings.Repeat("c", 300) + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fields := SSEEventFields(raw)
		prototest.CheckFieldsCover(t, fields, len(raw))
		lines, ends := 0, 0
		for _, fl := range fields {
			if len(fl.Value) > sseValueMax+len("…") || len(fl.Name) > sseValueMax+len("…") {
				t.Fatalf("unbounded field %.80q = %.80q", fl.Name, fl.Value)
			}
			switch {
			case fl.Kind == proto.FieldDelimiter:
				ends++
			case fl.Kind == proto.FieldHeader && fl.Name != "byte order mark":
				lines++
			}
		}
		text := strings.TrimPrefix(string(raw), "\xEF\xBB\xBF")
		norm := strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		wantLines := 0
		for _, l := range strings.Split(norm, "\n") {
			if l != "" {
				wantLines++
			}
		}
		if lines != wantLines || ends != strings.Count(norm, "\n") {
			t.Fatalf("%d lines and %d line ends, a plain split finds %d and %d", lines, ends, wantLines, strings.Count(norm, "\n"))
		}
	})
}
