package proto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// seedInitialize is the initialize request of seed 000 §2.1, byte for byte.
const seedInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1.0"},"transport":{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}}}`

func TestControlFrameOfSeedInitialize(t *testing.T) {
	body := []byte(seedInitialize)
	frame := AppendControlFrame(nil, body)
	// The seed's example header 00 00 00 DA is wrong: the prefix is the true length, 227.
	if len(body) != 227 || !bytes.Equal(frame[:4], []byte{0x00, 0x00, 0x00, 0xE3}) {
		t.Fatalf("prefix % x for a %d-byte body, want 00 00 00 e3 for 227", frame[:4], len(body))
	}
	if binary.BigEndian.Uint32(frame) != uint32(len(body)) || !bytes.Equal(frame[4:], body) {
		t.Fatal("frame is not length + body")
	}
	// The seed's hex dump of the first body bytes.
	if !bytes.Equal(frame[4:18], unhex(t, "7B 22 6A 73 6F 6E 72 70 63 22 3A 22 32 2E")) {
		t.Fatalf("body starts % x", frame[4:18])
	}
	for name, read := range map[string]func([]byte) ([]byte, []byte, []Field, error){
		"Parse": func(b []byte) ([]byte, []byte, []Field, error) { return ParseControlFrame(b, 0) },
		"Read":  func(b []byte) ([]byte, []byte, []Field, error) { return ReadControlFrame(bytes.NewReader(b), 0) },
	} {
		gotFrame, gotBody, fields, err := read(append(frame, 0xAA)) // a byte of the next frame follows
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(gotFrame, frame) || !bytes.Equal(gotBody, body) {
			t.Fatalf("%s returned frame of %d bytes, body of %d", name, len(gotFrame), len(gotBody))
		}
		want := []Field{
			{Offset: 0, Len: 4, Name: "length", Value: "227", Kind: FieldHeader},
			{Offset: 4, Len: 227, Name: "body", Value: "227 bytes", Kind: FieldBody},
		}
		if len(fields) != 2 || fields[0] != want[0] || fields[1] != want[1] {
			t.Fatalf("%s fields %+v, want %+v", name, fields, want)
		}
	}
	m, err := Decode(EncJSON, body)
	if err != nil || m.Method != "initialize" {
		t.Fatalf("seed body does not decode: %v", err)
	}
}

// failReader fails the test if anything reads past the bytes it was given.
type failReader struct {
	t *testing.T
	r io.Reader
}

func (f failReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		f.t.Fatal("read past the length prefix of an oversized frame")
	}
	return n, err
}

func TestControlFrameTooLarge(t *testing.T) {
	head := []byte{0xFF, 0xFF, 0xFF, 0xFF}
	frame, body, fields, err := ReadControlFrame(failReader{t, bytes.NewReader(head)}, 1024)
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
		for name, read := range map[string]func([]byte) ([]byte, []byte, []Field, error){
			"Parse": func(b []byte) ([]byte, []byte, []Field, error) { return ParseControlFrame(b, 0) },
			"Read":  func(b []byte) ([]byte, []byte, []Field, error) { return ReadControlFrame(bytes.NewReader(b), 0) },
		} {
			frame, body, fields, err := read(part)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%s cut at %d: err = %v, want io.ErrUnexpectedEOF", name, cut, err)
			}
			if !bytes.Equal(frame, part) || body != nil {
				t.Fatalf("%s cut at %d: kept % x, want what was read", name, cut, frame)
			}
			if cut > 4 {
				checkFieldsCover(t, fields, cut)
			}
		}
	}
	if _, _, _, err := ReadControlFrame(bytes.NewReader(nil), 0); err != io.EOF {
		t.Fatalf("clean end: err = %v, want io.EOF", err)
	}
}

func TestReadControlFrameAllocatesOnlyWhatArrives(t *testing.T) {
	// The prefix promises 16 MiB, under the max; the peer sends 10 bytes and stops.
	lying := append(binary.BigEndian.AppendUint32(nil, DefaultMaxControlFrame), make([]byte, 10)...)
	frame, _, _, err := ReadControlFrame(bytes.NewReader(lying), 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v", err)
	}
	if cap(frame) > ControlHeaderLen+readChunk {
		t.Fatalf("allocated %d bytes for 14 that arrived", cap(frame))
	}
	// A true large frame still arrives whole across many reads.
	big := bytes.Repeat([]byte("x"), 3*readChunk+17)
	frame, body, _, err := ReadControlFrame(io.MultiReader(bytes.NewReader(AppendControlFrame(nil, big)), bytes.NewReader([]byte{9})), 0)
	if err != nil || !bytes.Equal(body, big) || len(frame) != len(big)+4 {
		t.Fatalf("large frame: %d bytes, %v", len(body), err)
	}
}

// errReader fails with a transport error after its bytes.
type errReader struct{ b []byte }

var errReset = errors.New("stream reset")

func (e *errReader) Read(p []byte) (int, error) {
	if len(e.b) == 0 {
		return 0, errReset
	}
	n := copy(p, e.b)
	e.b = e.b[n:]
	return n, nil
}

func TestReadControlFramePassesTransportErrors(t *testing.T) {
	full := AppendControlFrame(nil, []byte("abcdef"))
	for _, cut := range []int{2, 6} {
		frame, _, _, err := ReadControlFrame(&errReader{full[:cut]}, 0)
		if !errors.Is(err, errReset) || !bytes.Equal(frame, full[:cut]) {
			t.Fatalf("cut %d: err = %v frame % x", cut, err, frame)
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
