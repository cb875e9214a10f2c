package export

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// streamBytesOver is the size past which a frame's bytes are written to
// the export in pieces instead of inside its encoded object, so that a
// 64 MiB frame is never held again escaped. Tests lower it.
var streamBytesOver = 1 << 20

// bytesPiece is how many of a frame's bytes are escaped at a time. Tests
// lower it.
var bytesPiece = 64 << 10

// placeholder stands for a frame's bytes in its encoded object until they
// are written in their place.
const placeholder = "\x00mcpscope:frame-bytes\x00"

// writeFrame writes the object of frame f; bytes over streamBytesOver are
// escaped piece by piece straight to the output, giving the same line as
// one encoded whole.
func (j *JSONL) writeFrame(f *capture.Frame, live uint64) error {
	o := frameObject(f, j.frames, live)
	if len(f.Raw) <= streamBytesOver {
		return j.write(o)
	}
	text := utf8.Valid(f.Raw)
	member := `"base64":`
	o.Text, o.Base64 = nil, []byte(placeholder)
	if text {
		member = `"text":`
		s := placeholder
		o.Text, o.Base64 = &s, nil
	}
	mark := []byte(member + `"` + base64.StdEncoding.EncodeToString([]byte(placeholder)) + `"`)
	if text {
		q, err := j.quote(placeholder)
		if err != nil {
			return err
		}
		mark = append([]byte(member), q...)
	}
	j.buf.Reset()
	if err := j.enc.Encode(o); err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	obj := termtext.JSON(j.buf.Bytes())
	i := bytes.Index(obj, mark)
	if i < 0 {
		return fmt.Errorf("encoding the export: the frame's bytes lost their place")
	}
	head, tail := obj[:i+len(member)], bytes.Clone(obj[i+len(mark):])
	if _, err := j.w.Write(head); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	if err := j.writeBytes(f.Raw, text); err != nil {
		return err
	}
	if _, err := j.w.Write(tail); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	return nil
}

// writeBytes writes raw as a JSON string: text escaped as encoding/json
// and termtext.JSON escape it, piece by piece at rune boundaries, or
// base64.
func (j *JSONL) writeBytes(raw []byte, text bool) error {
	if !text {
		if err := j.w.WriteByte('"'); err != nil {
			return fmt.Errorf("writing the export: %w", err)
		}
		enc := base64.NewEncoder(base64.StdEncoding, j.w)
		_, err := enc.Write(raw)
		if cerr := enc.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = j.w.WriteByte('"')
		}
		if err != nil {
			return fmt.Errorf("writing the export: %w", err)
		}
		return nil
	}
	if err := j.w.WriteByte('"'); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	for len(raw) > 0 {
		n := min(bytesPiece, len(raw))
		for n < len(raw) && !utf8.RuneStart(raw[n]) {
			n--
		}
		q, err := j.quote(string(raw[:n]))
		if err != nil {
			return err
		}
		if _, err := j.w.Write(q[1 : len(q)-1]); err != nil {
			return fmt.Errorf("writing the export: %w", err)
		}
		raw = raw[n:]
	}
	if err := j.w.WriteByte('"'); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	return nil
}

// quote encodes s as a JSON string made safe for a terminal, quotes
// included; the bytes are j's until its next encoding.
func (j *JSONL) quote(s string) ([]byte, error) {
	j.buf.Reset()
	if err := j.enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encoding the export: %w", err)
	}
	return termtext.JSON(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))), nil
}
