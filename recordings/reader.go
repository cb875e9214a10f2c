package recordings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// MaxLine bounds one line of a recording: a 64 MiB frame however
// escaped, and its annotations, fit; a longer line is corrupt.
const MaxLine = 512 << 20

// readBuffer is the read buffer of a Reader: a line that fits is decoded
// where it lies, a longer one is read in pieces. Tests lower it.
var readBuffer = 256 << 10

// TruncatedError says a recording ends in a torn line: it was cut short
// (killed, or its disk filled) while that line was being written.
// Everything before it is intact.
type TruncatedError struct {
	Offset int64 // where the torn line starts
	Line   int   // its line number, from 1
	Bytes  int   // how many bytes of it are there
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("the recording is cut short: line %d (byte %d) is torn after %d bytes; everything before it is intact", e.Line, e.Offset, e.Bytes)
}

// CorruptError says one line of a recording is not a record. Reading may
// go on with the next line.
type CorruptError struct {
	Offset int64
	Line   int
	Err    error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("line %d (byte %d) of the recording is corrupt: %v", e.Line, e.Offset, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Reader reads a recording line by line.
type Reader struct {
	br     *bufio.Reader
	closer io.Closer
	h      Header
	off    int64 // offset of the next line
	line   int   // number of the last line read
	frames int64
	ended  bool
	done   bool
}

// Open opens the recording at path and reads its header.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening the recording: %w", err)
	}
	r, err := NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.closer = f
	return r, nil
}

// NewReader reads a recording from r, starting with its header.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, readBuffer)}
	b, _, torn, err := rd.readLine(headerKeep)
	var corrupt *CorruptError
	switch {
	case err == io.EOF:
		return nil, errors.New("not an mcpscope recording: the file is empty")
	case errors.As(err, &corrupt):
		return nil, fmt.Errorf("not an mcpscope recording: the first line is not a %s header (%w)", Format, corrupt.Err)
	case err != nil:
		return nil, err
	case torn > 0:
		return nil, errors.New("not a whole mcpscope recording: its header line is cut short")
	}
	if err := json.Unmarshal(b, &rd.h); err != nil || rd.h.Format != Format {
		return nil, fmt.Errorf("not an mcpscope recording: the first line is not a %s header", Format)
	}
	if rd.h.Version < 1 || rd.h.Version > Version {
		return nil, fmt.Errorf("recording format version %d is not one this mcpscope reads (1 … %d): a newer mcpscope wrote it", rd.h.Version, Version)
	}
	return rd, nil
}

// Header returns the recording's header.
func (r *Reader) Header() Header { return r.h }

// Frames returns how many frame records have been read so far.
func (r *Reader) Frames() int64 { return r.frames }

// Ended reports whether the recording's end line was read: the session
// closed cleanly rather than being cut short.
func (r *Reader) Ended() bool { return r.ended }

// Offset returns the byte offset of the next line.
func (r *Reader) Offset() int64 { return r.off }

// Close closes the file Open opened.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Next returns the next record: io.EOF at the end, a *TruncatedError when
// the last line is torn, a *CorruptError for a line that is not a record
// (Next may be called again to go on after it).
func (r *Reader) Next() (*Record, error) {
	if r.done {
		return nil, io.EOF
	}
	start := r.off
	b, sv, torn, err := r.readLine(readKeep)
	if err != nil {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			r.done = true // the end, or the file cannot be read
		}
		return nil, err
	}
	if torn > 0 {
		r.done = true
		return nil, &TruncatedError{Offset: start, Line: r.line, Bytes: torn}
	}
	rec, err := decodeLine(b, sv)
	if err != nil {
		return nil, &CorruptError{Offset: start, Line: r.line, Err: err}
	}
	switch rec.Kind {
	case RecFrame:
		r.frames++
	case RecEnd:
		r.ended = true
	}
	return rec, nil
}

// readLine reads one line without its newline, within lim: a line that
// fits the read buffer is returned as it is (sv nil), a longer one as its
// JSON without the values of its frame members, which sv holds. torn > 0
// says the input ended that many bytes into the line, before its newline.
// A line over lim (or MaxLine) is reported corrupt without being held:
// skipped to its end when lim.skip, else left there.
func (r *Reader) readLine(lim keepLimits) (b []byte, sv *spilledValues, torn int, err error) {
	r.line++
	start := r.off
	chunk, err := r.br.ReadSlice('\n')
	r.off += int64(len(chunk))
	if err == nil && len(chunk) <= lim.rest {
		return chunk[:len(chunk)-1], nil, 0, nil
	}
	s := newLineScan(lim)
	n := 0
	for {
		body, ended := chunk, err == nil
		if ended {
			body = chunk[:len(chunk)-1]
		}
		if n += len(body); n > MaxLine && s.over == nil {
			s.over = fmt.Errorf("the line is longer than %d MiB", MaxLine>>20)
		}
		if s.over == nil {
			s.feed(body)
		}
		corrupt := func(err error) error { return &CorruptError{Offset: start, Line: r.line, Err: err} }
		switch {
		case ended:
			rest, sv, ferr := s.finish()
			if ferr != nil {
				return nil, nil, 0, corrupt(ferr)
			}
			return rest, sv, 0, nil
		case s.over != nil && !lim.skip:
			return nil, nil, 0, corrupt(s.over)
		case errors.Is(err, io.EOF):
			if n == 0 {
				r.line--
				return nil, nil, 0, io.EOF
			}
			return nil, nil, n, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, nil, 0, fmt.Errorf("reading the recording: %w", err)
		}
		chunk, err = r.br.ReadSlice('\n')
		r.off += int64(len(chunk))
	}
}

// decodeLine turns one line into a Record; sv holds the values of its
// frame members when the line was read apart from them.
func decodeLine(b []byte, sv *spilledValues) (*Record, error) {
	var l line
	if err := unmarshalLine(b, &l); err != nil {
		return nil, fmt.Errorf("not a JSON record: %w", err)
	}
	sv.set(&l)
	rec := &Record{Time: time.Unix(0, l.T), Conn: l.Conn}
	rec.Key = capture.StreamKey{Conn: l.Conn, ReqID: l.Req, Tag: l.Tag}
	var err error
	switch l.K {
	case kindFrame:
		rec.Kind, rec.LiveSeq = RecFrame, l.Seq
		rec.Frame, err = frameOf(&l)
	case kindMark:
		rec.Kind, rec.Err = RecMark, l.Err
		rec.State, err = streamStates.parse(l.State)
	case kindLabel:
		rec.Kind, rec.Label = RecLabel, capture.StreamLabel{Text: l.Label, ID: l.Stream}
		if l.Stream != "" {
			rec.Label.Opener, err = dirOf(l.Dir)
		}
	case kindSize:
		rec.Kind, rec.Size = RecSize, l.Total
	case kindRest:
		rec.Kind, rec.Chunks, rec.Size = RecRest, l.Chunks, l.Total
		rec.Tail = bytesOf(l.Text, l.B64)
		if l.Chunks < 0 || l.Total < 0 {
			err = errors.New("negative stream totals")
		}
	case kindSSEOpen:
		rec.Kind = RecSSEOpen
		rec.SSE = capture.SSEStart{Method: l.Method, ReqID: l.ReqID, Of: l.Of, After: l.After}
		rec.SSE.Kind, err = sseKinds.parse(l.Kind)
	case kindSSEEvent:
		rec.Kind, rec.LiveSeq, rec.Size, rec.LastID = RecSSEEvent, l.Seq, l.Total, l.LastID
	case kindSSEEnd:
		rec.Kind, rec.Why = RecSSEEnd, l.Why
		rec.SSEState, err = sseStates.parse(l.State)
	case kindLink:
		rec.Kind, rec.Transport, rec.Era, rec.Protocol = RecLink, l.Transport, l.Era, l.Protocol
	case kindEnd:
		rec.Kind = RecEnd
	default:
		err = fmt.Errorf("unknown record kind %q", l.K)
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// bytesOf returns the bytes a line holds as text or base64.
func bytesOf(text *string, b64 []byte) []byte {
	if text != nil {
		return []byte(*text)
	}
	return b64
}

// dirOf reads a direction: "out" or "in".
func dirOf(s string) (capture.Dir, error) {
	switch s {
	case "out":
		return capture.Out, nil
	case "in":
		return capture.In, nil
	}
	return 0, fmt.Errorf("unknown direction %q", s)
}

// frameOf rebuilds a Frame from its line, its message decoded again from
// the recorded bytes.
func frameOf(l *line) (*capture.Frame, error) {
	f := &capture.Frame{Time: time.Unix(0, l.T), Conn: l.Conn, Raw: bytesOf(l.Text, l.B64)}
	dir, err := dirOf(l.Dir)
	if err != nil {
		return nil, err
	}
	f.Dir = dir
	kind, err := channelNames.parse(l.Ch)
	if err != nil {
		return nil, err
	}
	f.Chan = capture.Channel{Kind: kind, ReqID: l.Req, Tag: l.Tag, Ch: l.DCh}
	if f.Enc, err = encodingOrJSON(l.Enc); err != nil {
		return nil, err
	}
	f.Size = max(l.Size, len(f.Raw))
	for _, fd := range l.Fields {
		if fd.O < 0 || fd.N < 0 || fd.O > len(f.Raw) || fd.N > f.Size-fd.O || fd.K > uint8(proto.FieldDelimiter) {
			return nil, fmt.Errorf("annotation %q (offset %d, %d bytes) lies outside the frame's %d bytes", fd.F, fd.O, fd.N, f.Size)
		}
		f.Fields = append(f.Fields, proto.Field{Offset: fd.O, Len: fd.N, Name: fd.F, Value: fd.V, Kind: proto.FieldKind(fd.K)})
	}
	if l.Err != "" {
		f.Err = errors.New(l.Err)
	}
	body, menc, err := messageBody(l, f)
	if err != nil || body == nil {
		return f, err
	}
	if l.Viol != "" {
		f.Msg = jsonrpc.NewViolation(body, errors.New(l.Viol))
		return f, nil
	}
	if m, _ := jsonrpc.Decode(menc, body); m != nil {
		f.Msg = m
	}
	return f, nil
}

// messageBody returns the recorded message body of a frame line and its
// encoding, or nil when the frame had no message.
func messageBody(l *line, f *capture.Frame) ([]byte, proto.Encoding, error) {
	menc := f.Enc
	if l.MEnc != "" {
		var err error
		if menc, err = encodingOrJSON(l.MEnc); err != nil {
			return nil, 0, err
		}
	}
	switch {
	case l.Msg != nil:
		if len(l.Msg) != 2 || l.Msg[0] < 0 || l.Msg[1] < 0 || l.Msg[0] > len(f.Raw)-l.Msg[1] {
			return nil, 0, fmt.Errorf("message range %v lies outside the frame's %d bytes", l.Msg, len(f.Raw))
		}
		return f.Raw[l.Msg[0] : l.Msg[0]+l.Msg[1]], menc, nil
	case l.MText != nil || l.MB64 != nil:
		return bytes.Clone(bytesOf(l.MText, l.MB64)), menc, nil
	}
	return nil, menc, nil
}

func encodingOrJSON(name string) (proto.Encoding, error) {
	if name == "" {
		return proto.EncJSON, nil
	}
	return encodingNames.parse(name)
}
