package mcpconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Position is a place in a file: its line and column, both from 1; the
// column counts characters.
type Position struct{ Line, Column int }

// PositionAt returns the position of the byte at offset in data (an offset
// past the end is the end).
func PositionAt(data []byte, offset int64) Position {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	p := Position{Line: 1, Column: 1}
	for _, r := range string(data[:offset]) {
		if r == '\n' {
			p.Line++
			p.Column = 1
			continue
		}
		p.Column++
	}
	return p
}

// FileError is a config file that could not be read or parsed, with the
// place of the fault when the JSON decoder names one.
type FileError struct {
	Path string
	// Pos is where the JSON went wrong (zero when unknown).
	Pos Position
	Err error
}

// Error renders the error as path:line:col: message.
func (e *FileError) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Pos.Line, e.Pos.Column, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// decodeError wraps a JSON decoding error of data read from path with the
// line and column it points at. A syntax error's offset is just past the
// byte at fault.
func decodeError(path string, data []byte, err error) error {
	fe := &FileError{Path: path, Err: err}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off := syn.Offset
		if off > 0 && off <= int64(len(data)) {
			_, size := utf8.DecodeLastRune(data[:off])
			off -= int64(size)
		}
		fe.Pos = PositionAt(data, off)
	case errors.As(err, &typ):
		fe.Pos = PositionAt(data, typ.Offset)
	}
	return fe
}
