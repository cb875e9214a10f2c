package flow

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

func TestExecStreamHeaderSeedExample(t *testing.T) {
	h := ExecStreamHeader{RequestID: 42, StreamTag: 1}
	want := prototest.Unhex(t, "00 00 00 2A 00 00 00 01")
	if got := h.Append(nil); !bytes.Equal(got, want) {
		t.Fatalf("Append = % x, want % x", got, want)
	}
	unit := append(want, "payload"...)
	got, payload, fields, err := ParseExecStreamHeader(unit)
	if err != nil || got != h || string(payload) != "payload" {
		t.Fatalf("Parse = %+v %q %v", got, payload, err)
	}
	prototest.CheckFieldsCover(t, fields, len(unit))
	if fields[0].Name != "request id" || fields[0].Value != "42" || fields[1].Name != "stream tag" || fields[1].Value != "1" || fields[2].Name != "payload" {
		t.Fatalf("fields %+v", fields)
	}
	for _, cut := range []int{0, 3, 7} {
		if _, _, _, err := ParseExecStreamHeader(want[:cut]); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Parse cut %d: %v", cut, err)
		}
	}
}

func TestDatagramHeaderSeedExample(t *testing.T) {
	want := prototest.Unhex(t, "01 00 00 00 00 2A")
	h := DatagramHeader{Channel: ChannelProgress, RequestID: 42}
	if got := h.Append(nil); !bytes.Equal(got, want) {
		t.Fatalf("Append = % x, want % x", got, want)
	}
	unit := append(want, `{"progress":1}`...)
	got, payload, fields, err := ParseDatagramHeader(unit)
	if err != nil || got != h || string(payload) != `{"progress":1}` {
		t.Fatalf("Parse = %+v %q %v", got, payload, err)
	}
	prototest.CheckFieldsCover(t, fields, len(unit))
	names := []string{"channel", "flags", "request id", "payload"}
	values := []string{"progress (0x01)", "0x00", "42", "14 bytes"}
	for i, f := range fields {
		if f.Name != names[i] || f.Value != values[i] {
			t.Fatalf("field %d = %+v, want %s=%s", i, f, names[i], values[i])
		}
	}
	// An unknown channel and set flags decode; they are shown, not refused.
	got, _, fields, err = ParseDatagramHeader(prototest.Unhex(t, "07 80 00 00 00 01"))
	if err != nil || got.Channel != 7 || got.Channel.Known() || got.Flags != 0x80 {
		t.Fatalf("unknown channel: %+v %v", got, err)
	}
	if fields[0].Value != "unknown (0x07)" || fields[1].Value != "0x80 (reserved bits set)" {
		t.Fatalf("fields %+v", fields)
	}
	if _, _, _, err := ParseDatagramHeader(want[:5]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("short datagram: %v", err)
	}
	for c, name := range map[DatagramChannel]string{ChannelReserved: "reserved", ChannelProgress: "progress", ChannelAudio: "audio", ChannelLog: "log", 0xFF: "unknown (0xff)"} {
		if c.String() != name {
			t.Errorf("%d.String() = %q, want %q", c, c.String(), name)
		}
	}
}
