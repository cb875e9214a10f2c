package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// FuzzParseFilter: any filter text parses, and matching never panics.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", ">", "< #3 datagram", "#", "error tools/list", "stderr  \t x", "#\xff"} {
		f.Add(s)
	}
	st := sampleStore(f)
	frames := st.Window(1, st.Len())
	x := newIndex()
	x.catchUp(st)
	f.Fuzz(func(t *testing.T, s string) {
		fl := parseFilter(s)
		if fl.empty() != (strings.TrimSpace(s) == "" || len(strings.Fields(s)) == 0) {
			t.Fatalf("%q: empty %v", s, fl.empty())
		}
		for _, fr := range frames {
			fl.match(fr, x)
		}
	})
}

// FuzzDatagramBoard: any datagram bytes, in any encoding, are read into
// the board and rendered without panicking, as raw rows when they do not
// decode.
func FuzzDatagramBoard(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 3, 0xa1}, uint8(proto.EncCBOR))
	f.Add([]byte{3, 0, 0, 0, 0, 3, '{', '}'}, uint8(proto.EncJSON))
	f.Add([]byte{2, 0, 0, 0, 0, 3, 0xff}, uint8(proto.EncBinary))
	f.Add([]byte{9}, uint8(proto.EncBinary))
	f.Add([]byte{1, 0, 0, 0, 0, 3, 0xa2, 0x68, 'p', 'r', 'o', 'g', 'r', 'e', 's', 's', 0xf9, 0x7e, 0x00,
		0x65, 't', 'o', 't', 'a', 'l', 0xf9, 0x7c, 0x00}, uint8(proto.EncCBOR)) // progress NaN, total +Inf
	f.Fuzz(func(t *testing.T, raw []byte, enc uint8) {
		b := newDatagramBoard()
		var pb progressBoard
		fr := &capture.Frame{Time: t0, Chan: capture.Channel{Kind: capture.Datagram}, Raw: raw, Size: len(raw), Enc: proto.Encoding(enc % 4)}
		if r, ok := b.add(fr); ok {
			pb.report(callKey{conn: "wt", id: jsonrpc.IntID(0).Key()}, jsonrpc.IntID(0), nil, r, t0)
		}
		if b.total != 1 {
			t.Fatal("the datagram was not counted")
		}
		st := look.NewStyles(true)
		p := newDatagramsPane(&b, &pb, &st)
		if n := strings.Count(p.Render(60, 6, true), "\n"); n != 5 {
			t.Fatalf("%d lines", n+1)
		}
	})
}

// FuzzProgressNotification: any params of a progress notification or a
// cancellation are read into the index and drawn as a bar on one line,
// safe to print, without panicking.
func FuzzProgressNotification(f *testing.F) {
	f.Add([]byte(`{"progressToken":1,"progress":1,"total":2,"message":"x"}`))
	f.Add([]byte(`{"progressToken":"a\u001b]0;x\u0007","progress":-1e308,"total":1e308,"message":"\n"}`))
	f.Add([]byte(`{"progressToken":null,"requestId":1}`))
	f.Add([]byte(`{"progressToken":1,"progress":1e308,"total":1e-308}`))
	st := look.NewStyles(true)
	f.Fuzz(func(t *testing.T, params []byte) {
		x := newIndex()
		for i, method := range []string{mcp.MethodNotifyProgress, mcp.MethodNotifyCancelled, mcp.MethodNotifyProgress} {
			x.add(&capture.Frame{Seq: uint64(i + 1), Time: t0, Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Control},
				Msg: &jsonrpc.Message{Method: method, Params: params}})
		}
		for _, b := range x.progress.newestFirst(maxProgressRows, nil) {
			line := ansi.Strip(renderProgressBar(b, x.progress.now, 80, &st))
			if strings.ContainsAny(line, "\x1b\n\r\a") || ansi.StringWidth(line) != 80 {
				t.Fatalf("bar %q", line)
			}
		}
	})
}

// FuzzDetailContent: any control frame bytes, in any encoding, give a
// detail and a traffic row without panicking.
func FuzzDetailContent(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x02{}"), uint8(proto.EncJSON))
	f.Add([]byte("\x00\x00\x00\x01\xa1"), uint8(proto.EncCBOR))
	f.Add([]byte("\x00\x00\xff\xff"), uint8(proto.EncCBOR))
	f.Fuzz(func(t *testing.T, raw []byte, enc uint8) {
		fr := &capture.Frame{Seq: 1, Time: t0, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(raw), Enc: proto.Encoding(enc % 4)}
		if _, _, fields, err := flow.ParseControlFrame(raw, 1<<20); err == nil {
			fr.Fields = fields
			if msgs, batch, err := jsonrpc.DecodeBatch(fr.Enc, bodyOf(fr)); err == nil && !batch {
				fr.Msg = msgs[0]
			} else {
				fr.Err = err
			}
		}
		st := look.NewStyles(false)
		x := newIndex()
		x.add(fr)
		c := detailContent(detailInput{f: fr, dialect: mcp.DialectMCPFlow, st: &st}, 100)
		if got := len(c.rows(0, c.rowCount())); got != c.rowCount() {
			t.Fatalf("the detail has %d rows and renders %d", c.rowCount(), got)
		}
		_, _ = frameLabel(fr, x, mcp.DialectMCP)
	})
}
