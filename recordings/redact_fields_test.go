package recordings

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// recordFrame writes a recording of f with o's redaction and reads its
// one frame back.
func recordFrame(t *testing.T, f *capture.Frame, o Options) *capture.Frame {
	t.Helper()
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Transport: "http"}, o)
	w.Append(f)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil || len(recs) == 0 || recs[0].Kind != RecFrame {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	return recs[0].Frame
}

// An SSE event's annotations are masked as its bytes are: the "data"
// line's value, which copies the event's JSON, holds no credential of a
// secret member nor a literal secret, and keeps its length.
func TestRedactionMasksAnnotationValuesAsTheFrame(t *testing.T) {
	raw := []byte("event: other\ndata: {\"access_token\":\"SEKRETX1\",\"note\":\"LITERAL-SEKRET\"}\n\n")
	fields := httphead.SSEEventFields(raw)
	got := recordFrame(t, &capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Fields: fields, Enc: proto.EncText},
		Options{Secrets: []string{"LITERAL-SEKRET"}})
	if len(got.Fields) != len(fields) {
		t.Fatalf("%d annotations, want %d", len(got.Fields), len(fields))
	}
	for i, fd := range got.Fields {
		if strings.Contains(fd.Value, "SEKRET") || len(fd.Value) != len(fields[i].Value) {
			t.Errorf("annotation %q = %q, was %q", fd.Name, fd.Value, fields[i].Value)
		}
	}
	if strings.Contains(string(got.Raw), "SEKRET") {
		t.Errorf("the frame holds %q", got.Raw)
	}
}

// A secret member whose value an annotation cut short (no closing quote)
// is masked as far as it goes.
func TestRedactionMasksASecretCutShort(t *testing.T) {
	got := string(Redact([]byte(`data: {"jsonrpc":"2.0","result":{"access_token":"SEKRET-CUT…`)))
	if strings.Contains(got, "SEKRET") || !strings.Contains(got, `"access_token":"`) {
		t.Errorf("got %q", got)
	}
}

// The query parameters a captured URL masks (httphead.SecretParam: key,
// sig, code, auth, session, …) are masked in a recording's text too, as a
// failure quoting the URL words them; other parameters and the masks
// httphead.RedactQuery wrote stay as they are.
func TestRedactionMasksSecretQueryParameters(t *testing.T) {
	text := "the server at http://127.0.0.1:1/mcp?key=SEKRET1&sig=SEKRET2&code=SEKRET3&auth=SEKRET4&session=SEKRET5&x=1 cannot be reached"
	got := string(Redact([]byte(text)))
	if strings.Contains(got, "SEKRET") || !strings.Contains(got, "&x=1 cannot") || len(got) != len(text) {
		t.Errorf("got %q", got)
	}
	head := "POST /mcp?key=" + "[redacted-7-bytes]" + "&x=1 HTTP/1.1\r\n"
	if got := string(Redact([]byte(head))); got != head {
		t.Errorf("a masked query became %q", got)
	}
	for _, name := range []string{"key", "sig", "code", "session", "auth"} {
		if !httphead.SecretParam(name) {
			t.Errorf("httphead.SecretParam(%q) is false", name)
		}
	}
}
