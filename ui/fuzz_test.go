package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
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
	f.Fuzz(func(t *testing.T, raw []byte, enc uint8) {
		b := newDatagramBoard()
		fr := &capture.Frame{Time: t0, Chan: capture.Channel{Kind: capture.Datagram}, Raw: raw, Size: len(raw), Enc: proto.Encoding(enc % 4)}
		b.add(fr)
		if b.total != 1 {
			t.Fatal("the datagram was not counted")
		}
		st := look.NewStyles(true)
		p := newDatagramsPane(&b, &st)
		if n := strings.Count(p.Render(60, 6, true), "\n"); n != 5 {
			t.Fatalf("%d lines", n+1)
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
		if _, _, fields, err := proto.ParseControlFrame(raw, 1<<20); err == nil {
			fr.Fields = fields
			if msgs, batch, err := proto.DecodeBatch(fr.Enc, bodyOf(fr)); err == nil && !batch {
				fr.Msg = msgs[0]
			} else {
				fr.Err = err
			}
		}
		st := look.NewStyles(false)
		x := newIndex()
		x.add(fr)
		c := detailContent(detailInput{f: fr, dialect: proto.DialectMCPFlow, st: &st}, 100)
		if got := len(c.rows(0, c.rowCount())); got != c.rowCount() {
			t.Fatalf("the detail has %d rows and renders %d", c.rowCount(), got)
		}
		_, _ = frameLabel(fr, x, proto.DialectMCP)
	})
}
