package tokenstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// fileVersion is the version of tokens.json this package writes and reads.
const fileVersion = 1

// maxFileSize bounds what is read of tokens.json: a larger file is refused.
const maxFileSize = 4 << 20

// fileDoc is tokens.json: {"version":1,"entries":[…]}.
type fileDoc struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// CorruptError says that a token file is not one mcpscope can read, and
// where: Line and Col (1-based) are set when the fault has a place. Its
// text never quotes the file's content, which may hold secrets.
type CorruptError struct {
	// File is the token file's path.
	File string
	// Line and Col locate the fault; zero when it has no place.
	Line, Col int
	// Problem says what is wrong.
	Problem string
	// Err is the decoder's error, if one was the cause.
	Err error
}

// Error returns "FILE:LINE:COL: PROBLEM", or "FILE: PROBLEM" without a place.
func (e *CorruptError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Problem)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Problem)
}

// Unwrap returns the decoder's error.
func (e *CorruptError) Unwrap() error { return e.Err }

// decode reads a token file's bytes. A fault comes back as a *CorruptError
// whose File the caller fills in.
func decode(data []byte) (fileDoc, error) {
	if len(data) > maxFileSize {
		return fileDoc{}, &CorruptError{Problem: fmt.Sprintf("larger than %d MiB: not a token file of mcpscope", maxFileSize>>20)}
	}
	var doc fileDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return fileDoc{}, jsonFault(data, err)
	}
	if doc.Version != fileVersion {
		return fileDoc{}, &CorruptError{Problem: fmt.Sprintf("version %d, want %d", doc.Version, fileVersion)}
	}
	for i, e := range doc.Entries {
		if e.Issuer == "" || e.Resource == "" {
			return fileDoc{}, &CorruptError{Problem: fmt.Sprintf("entry %d has no issuer or no resource", i+1)}
		}
	}
	return doc, nil
}

// jsonFault turns a JSON decoder's error into a CorruptError placed at its
// offset, worded without the error's own text (a syntax error quotes a
// character of the input, which may be part of a secret).
func jsonFault(data []byte, err error) *CorruptError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		if strings.Contains(syn.Error(), "unexpected end") {
			line, col := position(data, int64(len(data)))
			return &CorruptError{Line: line, Col: col, Problem: "malformed JSON: it ends too soon", Err: err}
		}
		line, col := position(data, syn.Offset-1) // Offset counts the bytes read, the faulty one included
		return &CorruptError{Line: line, Col: col, Problem: "malformed JSON", Err: err}
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset-1) // at the value's last byte
		kind, _, _ := strings.Cut(typ.Value, " ") // "number 1e999": the kind alone
		return &CorruptError{Line: line, Col: col, Problem: fmt.Sprintf("%q is a JSON %s where a %s belongs", typ.Field, kind, typ.Type), Err: err}
	}
	return &CorruptError{Problem: "a value that is not what mcpscope writes (an expiry or saved time?)", Err: err}
}

// position returns the 1-based line and column (in bytes) of offset in data.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
