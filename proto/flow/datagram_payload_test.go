package flow

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestDatagramPayloadsInBothEncodings(t *testing.T) {
	p := ProgressDatagram{Progress: 50, Total: 100, Message: "half"}
	l := LogDatagram{Level: "info", Logger: "demo", Data: []byte(`{"n":1,"s":"x"}`)}
	for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
		b, err := p.Encode(enc)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeProgressDatagram(enc, b)
		if err != nil || back != p {
			t.Fatalf("%s progress: %+v %v", enc, back, err)
		}
		b, err = l.Encode(enc)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := DecodeLogDatagram(enc, b)
		if err != nil || lb.Level != "info" || lb.Logger != "demo" || !bytes.Equal(lb.Data, l.Data) {
			t.Fatalf("%s log: %+v %v", enc, lb, err)
		}
	}
	// The CBOR form is a map with text keys, as DESIGN §3.2 says.
	b, _ := ProgressDatagram{Progress: 1}.Encode(proto.EncCBOR)
	if d, err := jsonrpc.DiagnoseCBOR(b); err != nil || d != `{"progress": 1}` {
		t.Fatalf("progress in CBOR = %s %v", d, err)
	}
	if _, err := DecodeProgressDatagram(proto.EncCBOR, []byte(`{"progress":1}`)); err == nil || !strings.Contains(err.Error(), "progress datagram") {
		t.Fatalf("JSON payload read as CBOR: %v", err)
	}
	if _, err := DecodeLogDatagram(proto.EncJSON, []byte(`[1]`)); err == nil {
		t.Fatal("array accepted as a log payload")
	}
	if _, err := DecodeLogDatagram(proto.EncBinary, []byte(`{}`)); err == nil {
		t.Fatal("binary encoding accepted")
	}
}
