package recordings

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto"
)

// fieldsKeep bounds the annotations of one frame line, as JSON: half of
// what a reader takes besides a frame's bytes (readKeep.rest), so that a
// line the Writer writes is always read whole. Tests lower it.
var fieldsKeep = 8 << 20

// notKeptName names the annotation that stands for the annotations of a
// frame that a recording did not keep.
const notKeptName = "annotations not kept"

// notKept is the annotation that stands for dropped annotations past
// kept: it covers the bytes from the end of the last one kept to the end
// of the frame, whose bytes kept are n of size.
func notKept(kept []fieldLine, n, size, dropped int) fieldLine {
	at := 0
	if k := len(kept); k > 0 {
		at = kept[k-1].O + kept[k-1].N
	}
	at = max(0, min(at, n))
	return fieldLine{O: at, N: size - at, F: notKeptName, V: plural.Count(dropped, "more annotation", "more annotations") + " past what a recording keeps", K: uint8(proto.FieldBody)}
}

// keepFields turns the annotations of a frame whose bytes kept are raw of
// size into lines appended to dst (empty, its room reused), within
// fieldsKeep, the rest dropped and counted in one notKept annotation; red,
// when set, masks their values. No annotation kept gives nil.
func keepFields(dst []fieldLine, fields []proto.Field, raw []byte, size int, red *redactor) []fieldLine {
	if out, ok := keepAllFields(dst, fields, raw, red); ok {
		return out
	}
	out := dst[:0]
	var enc bytes.Buffer
	je := json.NewEncoder(&enc)
	je.SetEscapeHTML(false)
	used := 0
	for i, fd := range fields {
		if fd.Offset >= len(raw) {
			continue
		}
		if red != nil {
			fd.Value = red.field(fd.Name, fd.Value)
		}
		fl := fieldLine{O: fd.Offset, N: fd.Len, F: fd.Name, V: fd.Value, K: uint8(fd.Kind)}
		enc.Reset()
		_ = je.Encode(fl) // its JSON and a newline: the length it takes in the list, comma included
		if used += enc.Len(); used > fieldsKeep {
			dropped := 0
			for _, rest := range fields[i:] {
				if rest.Offset < len(raw) {
					dropped++
				}
			}
			return append(out, notKept(out, len(raw), size, dropped))
		}
		out = append(out, fl)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// keepAllFields turns the annotations of a frame into lines, all of them,
// when they fit in fieldsKeep however their JSON comes out, without
// measuring it: a line takes at most its fixed members (two numbers of 20
// digits, a kind, the names and punctuation) and six bytes for each byte
// of its name and value (\u00XX). ok is false when they may not fit.
func keepAllFields(dst []fieldLine, fields []proto.Field, raw []byte, red *redactor) (out []fieldLine, ok bool) {
	bound := 0
	out = dst[:0]
	for _, fd := range fields {
		if fd.Offset >= len(raw) {
			continue
		}
		if red != nil {
			fd.Value = red.field(fd.Name, fd.Value)
		}
		if bound += 96 + 6*(len(fd.Name)+len(fd.Value)); bound > fieldsKeep {
			return nil, false
		}
		if cap(out) == 0 {
			out = make([]fieldLine, 0, len(fields))
		}
		out = append(out, fieldLine{O: fd.Offset, N: fd.Len, F: fd.Name, V: fd.Value, K: uint8(fd.Kind)})
	}
	if len(out) == 0 {
		return nil, true
	}
	return out, true
}
