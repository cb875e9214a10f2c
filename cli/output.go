package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// writeJSON prints a JSON value on w followed by a newline: indented when
// pretty (w is a terminal), compact otherwise. The value's bytes are kept as
// the server sent them apart from whitespace, and on a terminal apart from
// the characters it would act on, written as \u escapes of the same value
// (termtext.JSON). Indentation stops growing past jsonindent.DefaultMaxDepth
// levels, so the output stays proportional to the result however deep it
// nests.
func writeJSON(w io.Writer, raw []byte, pretty bool) error {
	var out []byte
	var err error
	if pretty {
		if out, err = jsonindent.Indent(raw, jsonindent.DefaultMaxDepth); err == nil {
			out = termtext.JSON(out)
		}
	} else {
		var buf bytes.Buffer
		err = json.Compact(&buf, raw)
		out = buf.Bytes()
	}
	if err != nil {
		return withExit(ExitProtocol, fmt.Errorf("the server's result is not valid JSON: %w", err))
	}
	out = append(out, '\n')
	if _, err := w.Write(out); err != nil {
		return withExit(ExitConnection, fmt.Errorf("cannot write the result: %w", err))
	}
	return nil
}

// listDocument builds {"field":[items…]} plus further named lists, in order.
func listDocument(fields []string, lists [][]json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f)
		b.Write(name)
		b.WriteString(":[")
		for j, it := range lists[i] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(it)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}
