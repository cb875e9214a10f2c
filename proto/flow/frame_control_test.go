package flow

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestControlFrameOfSeedInitialize(t *testing.T) {
	body := []byte(prototest.SeedInitialize)
	frame := AppendControlFrame(nil, body)
	// The seed's example header 00 00 00 DA is wrong: the prefix is the true length, 227.
	if len(body) != 227 || !bytes.Equal(frame[:4], []byte{0x00, 0x00, 0x00, 0xE3}) {
		t.Fatalf("prefix % x for a %d-byte body, want 00 00 00 e3 for 227", frame[:4], len(body))
	}
	if binary.BigEndian.Uint32(frame) != uint32(len(body)) || !bytes.Equal(frame[4:], body) {
		t.Fatal("frame is not length + body")
	}
	// The seed's hex dump of the first body bytes.
	if !bytes.Equal(frame[4:18], prototest.Unhex(t, "7B 22 6A 73 6F 6E 72 70 63 22 3A 22 32 2E")) {
		t.Fatalf("body starts % x", frame[4:18])
	}
	for name, read := range map[string]func([]byte) ([]byte, []byte, []proto.Field, error){
		"Parse": func(b []byte) ([]byte, []byte, []proto.Field, error) { return ParseControlFrame(b, 0) },
	} {
		gotFrame, gotBody, fields, err := read(append(frame, 0xAA)) // a byte of the next frame follows
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(gotFrame, frame) || !bytes.Equal(gotBody, body) {
			t.Fatalf("%s returned frame of %d bytes, body of %d", name, len(gotFrame), len(gotBody))
		}
		want := []proto.Field{
			{Offset: 0, Len: 4, Name: "length", Value: "227", Kind: proto.FieldHeader},
			{Offset: 4, Len: 227, Name: "body", Value: "227 bytes", Kind: proto.FieldBody},
		}
		if len(fields) != 2 || fields[0] != want[0] || fields[1] != want[1] {
			t.Fatalf("%s fields %+v, want %+v", name, fields, want)
		}
	}
	m, err := jsonrpc.Decode(proto.EncJSON, body)
	if err != nil || m.Method != "initialize" {
		t.Fatalf("seed body does not decode: %v", err)
	}
}

func TestControlFrameTooLarge(t *testing.T) {
	head := []byte{0xFF, 0xFF, 0xFF, 0xFF}
	frame, body, fields, err := ParseControlFrame(head, 1024)
	var tooLarge *FrameTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Size != 0xFFFFFFFF || tooLarge.Max != 1024 {
		t.Fatalf("err = %v, want *FrameTooLargeError{4294967295, 1024}", err)
	}
	if err.Error() != "frame of 4294967295 bytes exceeds the maximum of 1024 bytes" {
		t.Fatalf("message %q", err)
	}
	if !bytes.Equal(frame, head) || body != nil || len(fields) != 1 || fields[0].Value != "4294967295" {
		t.Fatalf("frame % x body %v fields %+v", frame, body, fields)
	}
	if _, _, _, err := ParseControlFrame(append(head, 1, 2, 3), 1024); !errors.As(err, &tooLarge) {
		t.Fatalf("Parse err = %v", err)
	}
	// A max of zero means the default limit.
	over := binary.BigEndian.AppendUint32(nil, DefaultMaxControlFrame+1)
	if _, _, _, err := ParseControlFrame(over, 0); !errors.As(err, &tooLarge) || tooLarge.Max != DefaultMaxControlFrame {
		t.Fatalf("default max: err = %v", err)
	}
	if _, err := EncodeControlFrame(make([]byte, 11), 10); !errors.As(err, &tooLarge) || tooLarge.Size != 11 {
		t.Fatalf("EncodeControlFrame over max: err = %v", err)
	}
	if f, err := EncodeControlFrame([]byte("hi"), 10); err != nil || !bytes.Equal(f, []byte{0, 0, 0, 2, 'h', 'i'}) {
		t.Fatalf("EncodeControlFrame = % x, %v", f, err)
	}
}

func TestControlFrameTruncated(t *testing.T) {
	full := AppendControlFrame(nil, []byte(`{"jsonrpc":"2.0","method":"x"}`))
	for _, cut := range []int{1, 3, 4, 5, len(full) - 1} {
		part := full[:cut]
		for name, read := range map[string]func([]byte) ([]byte, []byte, []proto.Field, error){
			"Parse": func(b []byte) ([]byte, []byte, []proto.Field, error) { return ParseControlFrame(b, 0) },
		} {
			frame, body, fields, err := read(part)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%s cut at %d: err = %v, want io.ErrUnexpectedEOF", name, cut, err)
			}
			if !bytes.Equal(frame, part) || body != nil {
				t.Fatalf("%s cut at %d: kept % x, want what was read", name, cut, frame)
			}
			if cut > 4 {
				prototest.CheckFieldsCover(t, fields, cut)
			}
		}
	}
}

func TestControlFrameEmptyBody(t *testing.T) {
	frame := AppendControlFrame(nil, nil)
	f, body, fields, err := ParseControlFrame(frame, 0)
	if err != nil || len(f) != 4 || len(body) != 0 || len(fields) != 1 {
		t.Fatalf("empty body: % x %v %+v %v", f, body, fields, err)
	}
}

func TestControlFrameSize(t *testing.T) {
	if n, err := ControlFrameSize([]byte{0, 0, 1, 0}, 0); n != 256 || err != nil {
		t.Fatalf("size = %d, %v", n, err)
	}
	var tooLarge *FrameTooLargeError
	if _, err := ControlFrameSize([]byte{0, 0, 1, 0}, 255); !errors.As(err, &tooLarge) {
		t.Fatalf("over max: err = %v", err)
	}
	if _, err := ControlFrameSize([]byte{0, 0}, 0); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("short head: err = %v", err)
	}
}
