package jsonrpc

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

func TestLineFields(t *testing.T) {
	line := AppendLine(nil, []byte(`{"jsonrpc":"2.0","method":"x"}`))
	if line[len(line)-1] != 0x0A {
		t.Fatal("line does not end with LF")
	}
	fields := LineFields(line)
	prototest.CheckFieldsCover(t, fields, len(line))
	if len(fields) != 2 || fields[0].Kind != proto.FieldBody || fields[1].Kind != proto.FieldDelimiter || fields[1].Value != "LF" {
		t.Fatalf("fields %+v", fields)
	}
	crlf := LineFields([]byte("{}\r\n"))
	if len(crlf) != 2 || crlf[0].Len != 2 || crlf[1].Len != 2 || crlf[1].Value != "CR LF" {
		t.Fatalf("CR LF fields %+v", crlf)
	}
	if last := LineFields([]byte("{}")); len(last) != 1 || last[0].Len != 2 {
		t.Fatalf("unterminated line fields %+v", last)
	}
	if empty := LineFields([]byte("\n")); len(empty) != 1 || empty[0].Kind != proto.FieldDelimiter {
		t.Fatalf("empty line fields %+v", empty)
	}
	if LineFields(nil) != nil {
		t.Fatal("fields for nothing")
	}
}
