package findingsview

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/findings"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// selectHost is a host that shows frames: it keeps what it was asked.
type selectHost struct {
	*screentest.Host
	selected [][3]int
}

func (h *selectHost) SelectFrame(seq uint64, off, n int) tea.Cmd {
	h.selected = append(h.selected, [3]int{int(seq), off, n})
	return nil
}

// line is a stdio line frame as captured: decoded, or its error.
func line(seq uint64, dir capture.Dir, text string) *capture.Frame {
	raw := []byte(text + "\n")
	f := &capture.Frame{Seq: seq, Dir: dir, Conn: "stdio", Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON}
	msgs, _, err := jsonrpc.DecodeJSON([]byte(text))
	if err != nil {
		f.Err = err
	} else {
		f.Msg = msgs[0]
	}
	return f
}

// endpoint is the endpoint event of the legacy HTTP+SSE transport: a
// warning.
func endpoint(seq uint64) *capture.Frame {
	raw := []byte("event: endpoint\ndata: /messages?s=1\n\n")
	return &capture.Frame{Seq: seq, Dir: capture.In, Conn: "stdio", Raw: raw, Size: len(raw), Fields: httphead.SSEEventFields(raw), Enc: proto.EncText}
}

// sampleBook holds two errors of one code, one of another, a warning.
func sampleBook() *Book {
	b := NewBook()
	for _, f := range []*capture.Frame{
		line(1, capture.In, "server starting"),
		line(2, capture.Out, `{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		line(3, capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`),
		line(4, capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`),
		endpoint(5),
		line(6, capture.In, "listening"),
	} {
		b.Note(f)
	}
	return b
}

func TestBookCounts(t *testing.T) {
	b := sampleBook()
	if s, n := b.Worst(); s != findings.Error || n != 3 || b.Count(findings.Warning) != 1 {
		t.Errorf("worst %s ×%d, %d warnings", s, n, b.Count(findings.Warning))
	}
	if s, ok := b.Frame(4); !ok || s != findings.Error || !b.FrameHas(5, findings.Warning) || b.FrameHas(5, findings.Error) {
		t.Errorf("frame 4: %s %v", s, ok)
	}
	if _, ok := b.Frame(2); ok {
		t.Error("frame 2 has a finding")
	}
}

func TestGoldenFindings(t *testing.T) {
	h := &selectHost{Host: screentest.NewHost()}
	v := Open(h, sampleBook())
	goldentest.CheckPlain(t, "findings", h.View(v, 100, 10))
	// The first heading folds; its findings go.
	v.Update(keytest.Press("enter"))
	goldentest.CheckPlain(t, "findings_folded", h.View(v, 100, 10))
}

// Enter on a finding asks the host to show its frame and its bytes.
func TestEnterSelectsTheFrame(t *testing.T) {
	h := &selectHost{Host: screentest.NewHost()}
	v := Open(h, sampleBook())
	v.Update(keytest.Press("down")) // the first finding of the first group
	v.Update(keytest.Press("enter"))
	if len(h.selected) != 1 || h.selected[0][0] != 4 || h.selected[0][2] == 0 {
		t.Errorf("selected %v", h.selected)
	}
	if _, closed := v.Update(keytest.Press("esc")); !closed {
		t.Error("esc does not close the view")
	}
}
