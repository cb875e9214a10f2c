package flowstream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/proto/flow"
)

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

func TestReadControlFrameLikeParse(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	frame := flow.AppendControlFrame(nil, body)
	got, gotBody, fields, err := ReadControlFrame(bytes.NewReader(append(frame, 0xAA)), 0) // a byte of the next frame follows
	if err != nil || !bytes.Equal(got, frame) || !bytes.Equal(gotBody, body) {
		t.Fatalf("frame % x body %q: %v", got, gotBody, err)
	}
	_, _, want, _ := flow.ParseControlFrame(frame, 0)
	if !reflect.DeepEqual(fields, want) {
		t.Fatalf("fields %+v, want %+v", fields, want)
	}
}

func TestReadControlFrameTooLarge(t *testing.T) {
	head := []byte{0xFF, 0xFF, 0xFF, 0xFF}
	frame, body, fields, err := ReadControlFrame(failReader{t, bytes.NewReader(head)}, 1024)
	var tooLarge *flow.FrameTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Size != 0xFFFFFFFF || tooLarge.Max != 1024 {
		t.Fatalf("err = %v, want *FrameTooLargeError{4294967295, 1024}", err)
	}
	if !bytes.Equal(frame, head) || body != nil || len(fields) != 1 || fields[0].Value != "4294967295" {
		t.Fatalf("frame % x body %v fields %+v", frame, body, fields)
	}
}

func TestReadControlFrameTruncated(t *testing.T) {
	full := flow.AppendControlFrame(nil, []byte(`{"jsonrpc":"2.0","method":"x"}`))
	for _, cut := range []int{1, 3, 4, 5, len(full) - 1} {
		part := full[:cut]
		frame, body, fields, err := ReadControlFrame(bytes.NewReader(part), 0)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("cut at %d: err = %v, want io.ErrUnexpectedEOF", cut, err)
		}
		if !bytes.Equal(frame, part) || body != nil {
			t.Fatalf("cut at %d: kept % x, want what was read", cut, frame)
		}
		if cut > 4 && (len(fields) != 2 || fields[1].Offset+fields[1].Len != cut) {
			t.Fatalf("cut at %d: fields %+v do not cover what was read", cut, fields)
		}
	}
	if _, _, _, err := ReadControlFrame(bytes.NewReader(nil), 0); err != io.EOF {
		t.Fatalf("clean end: err = %v, want io.EOF", err)
	}
}

func TestReadControlFrameAllocatesOnlyWhatArrives(t *testing.T) {
	// The prefix promises 16 MiB, under the max; the peer sends 10 bytes and stops.
	lying := append(binary.BigEndian.AppendUint32(nil, flow.DefaultMaxControlFrame), make([]byte, 10)...)
	frame, _, _, err := ReadControlFrame(bytes.NewReader(lying), 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v", err)
	}
	if cap(frame) > flow.ControlHeaderLen+readChunk {
		t.Fatalf("allocated %d bytes for 14 that arrived", cap(frame))
	}
	// A true large frame still arrives whole across many reads.
	big := bytes.Repeat([]byte("x"), 3*readChunk+17)
	frame, body, _, err := ReadControlFrame(io.MultiReader(bytes.NewReader(flow.AppendControlFrame(nil, big)), bytes.NewReader([]byte{9})), 0)
	if err != nil || !bytes.Equal(body, big) || len(frame) != len(big)+4 {
		t.Fatalf("large frame: %d bytes, %v", len(body), err)
	}
}

func TestReadControlFramePassesTransportErrors(t *testing.T) {
	full := flow.AppendControlFrame(nil, []byte("abcdef"))
	for _, cut := range []int{2, 6} {
		frame, _, _, err := ReadControlFrame(&errReader{full[:cut]}, 0)
		if !errors.Is(err, errReset) || !bytes.Equal(frame, full[:cut]) {
			t.Fatalf("cut %d: err = %v frame % x", cut, err, frame)
		}
	}
}

func FuzzReadControlFrame(f *testing.F) {
	f.Add(flow.AppendControlFrame(nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)), uint32(0))
	f.Add([]byte{0, 0, 0, 0xDA, '{'}, uint32(0))
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF}, uint32(1024))
	f.Add([]byte{0, 0}, uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, max uint32) {
		limit := int(max % (1 << 20))
		frame, body, fields, err := flow.ParseControlFrame(b, limit)
		rframe, rbody, rfields, rerr := ReadControlFrame(bytes.NewReader(b), limit)
		if !bytes.Equal(frame, rframe) || !bytes.Equal(body, rbody) || !reflect.DeepEqual(fields, rfields) {
			t.Fatalf("Parse and Read disagree: % x / % x", frame, rframe)
		}
		if (err == nil) != (rerr == nil) || (len(b) > 0 && errors.Is(err, io.ErrUnexpectedEOF) != errors.Is(rerr, io.ErrUnexpectedEOF)) {
			t.Fatalf("Parse err %v, Read err %v", err, rerr)
		}
	})
}

func BenchmarkReadControlFrame(b *testing.B) {
	frame := flow.AppendControlFrame(nil, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`))
	stream := bytes.Repeat(frame, 1000)
	r := bytes.NewReader(stream)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if r.Len() == 0 {
			r.Reset(stream)
		}
		if _, _, _, err := ReadControlFrame(r, 0); err != nil {
			b.Fatal(err)
		}
	}
}
