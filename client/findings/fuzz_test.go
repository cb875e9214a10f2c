package findings

import (
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FuzzDetector feeds a detector frames built from random bytes on every
// channel, both ways, decoded or broken: it never panics, every finding's
// summary is safe to print and its bytes lie within the frame.
func FuzzDetector(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`), uint8(0))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","outputSchema":{"type":"object"}}]}}`), uint8(1))
	f.Add([]byte("not json\x1b[31m"), uint8(2))
	f.Add([]byte("event: endpoint\ndata: /m\n\n"), uint8(3))
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\ndata:\ndata: \"id\":\"\xff\",\"result\":{}}\n\n"), uint8(3))
	f.Add([]byte("\x00\x00\x01\x00{}"), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, how uint8) {
		d := NewDetector()
		for i := range 4 {
			fr := fuzzFrame(data, how+uint8(i))
			fr.Seq = uint64(i + 1)
			for _, x := range d.Note(fr) {
				if !termtext.Safe(x.Summary) {
					t.Fatalf("unsafe summary %q", x.Summary)
				}
				if x.Seq == fr.Seq && (x.Offset < 0 || x.Length < 0 || x.Offset+x.Length > len(fr.Raw)) {
					t.Fatalf("finding %s spans [%d,+%d) of %d bytes", x.Code, x.Offset, x.Length, len(fr.Raw))
				}
			}
		}
	})
}

// fuzzFrame builds a frame of data in the shape how picks.
func fuzzFrame(data []byte, how uint8) *capture.Frame {
	fr := &capture.Frame{Dir: capture.Dir(how & 1), Conn: "c", Raw: data, Size: len(data), Enc: proto.EncJSON}
	switch how % 6 {
	case 0, 1:
		fr.Fields = jsonrpc.LineFields(data)
	case 2:
		fr.Chan.Kind = capture.HTTP
		fr.Raw, fr.Fields = httphead.HTTPRequestHead("POST", "/", []httphead.HTTPHeader{{Name: "Mcp-Method", Value: string(data)}})
		fr.Size = len(fr.Raw)
	case 3:
		fr.Fields = httphead.SSEEventFields(data)
	case 4:
		fr.Fields = []proto.Field{{Offset: 0, Len: 4, Name: "length", Kind: proto.FieldHeader}, {Offset: 4, Len: len(data), Name: "body", Kind: proto.FieldBody}}
		fr.Size = len(data) + int(how)
	case 5:
		fr.Chan.Kind = capture.Stream
	}
	body := data
	if how%6 == 3 {
		body, _ = bodyOf(fr) // an SSE event's data, its lines joined
	}
	msgs, batch, err := jsonrpc.DecodeJSON(body)
	switch {
	case err != nil:
		fr.Err = err
	case !batch:
		fr.Msg = msgs[0]
	default:
		fr.Err = errors.New("x")
	}
	return fr
}
