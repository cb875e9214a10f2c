package sse

import (
	"errors"
	"io"
	"testing"
)

// TestReaderOnSkipWholeStream: the events' Raw and the bytes OnSkip is
// told, in the order they come, are the stream byte for byte: a byte order
// mark, blank lines before, between and after events, CR, LF and CR LF
// line ends, however the stream arrives.
func TestReaderOnSkipWholeStream(t *testing.T) {
	streams := map[string]string{
		"bom":        "\xEF\xBB\xBFdata: a\n\n",
		"leadblank":  "\n\n: hi\n\ndata: a\n\n",
		"crlf":       ": c\r\nretry: 5\r\nid: 7\r\ndata: {\r\ndata: }\r\n\r\n\r\n",
		"cronly":     "\r\rid: 3\rdata: a\r\r\r",
		"between":    "id: 9\n\n\n\nretry: 100\n\ndata: a\n\n",
		"trailcomm":  "data: a\n\n: bye\n",
		"extrablank": "data: a\n\n\n\n",
		"bomblank":   "\xEF\xBB\xBF\r\n\r\ndata: a\r\n\r\n",
	}
	for name, in := range streams {
		for rname, mk := range readers {
			rd := NewReader(mk(in), Limits{})
			var got []byte
			rd.OnSkip(func(b []byte) { got = append(got, b...) })
			for {
				ev, err := rd.Next()
				var cut *CutError
				if err == nil || errors.As(err, &cut) {
					got = append(got, ev.Raw...)
				}
				if err != nil {
					if !errors.Is(err, io.EOF) && !errors.As(err, &cut) {
						t.Fatalf("%s/%s: %v", name, rname, err)
					}
					break
				}
			}
			if string(got) != in {
				t.Errorf("%s/%s: got %q, want %q", name, rname, got, in)
			}
		}
	}
}
