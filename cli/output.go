package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/pflag"

	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// terminalWriter is a writer that is a terminal without being an *os.File:
// the stand-in terminal of the tests, which says how wide it is.
type terminalWriter interface {
	io.Writer
	TerminalWidth() int
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	if _, ok := w.(terminalWriter); ok {
		return true
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// terminalWidth is how many cells wide the terminal w is; 0 when w is no
// terminal or does not say.
func terminalWidth(w io.Writer) int {
	switch t := w.(type) {
	case terminalWriter:
		return t.TerminalWidth()
	case *os.File:
		if width, _, err := term.GetSize(t.Fd()); err == nil {
			return width
		}
	}
	return 0
}

// The output flags say how a result is printed: as text or JSON, on
// stdout or into a file, or as the raw bytes of its one binary content.
const (
	formatFlag = "format"
	outputFlag = "output"
	rawFlag    = "raw"
)

// outputFlags are the values of the output flags.
type outputFlags struct {
	format string // "text", "json", or "" (text at a terminal, JSON otherwise)
	file   string
	raw    bool
}

// outputFlagKey is the pflag annotation that marks the shared output
// flags, apart from a command's own flag of the same name.
const outputFlagKey = "mcpscope/output-flag"

// register adds the output flags to fs, but for a name fs already holds:
// a command that defined its own --format before registering the shared
// flags (with values of its own) keeps it.
func (o *outputFlags) register(fs *pflag.FlagSet) {
	if fs.Lookup(formatFlag) == nil {
		fs.StringVar(&o.format, formatFlag, "", "print the result as `text` or json (default: text at a terminal, JSON otherwise)")
		_ = fs.SetAnnotation(formatFlag, outputFlagKey, nil)
	}
	if fs.Lookup(outputFlag) == nil {
		fs.StringVar(&o.file, outputFlag, "", "write the result to `FILE` instead of stdout: its JSON, unless --format text or --raw")
		_ = fs.SetAnnotation(outputFlag, outputFlagKey, nil)
	}
	if fs.Lookup(rawFlag) == nil {
		fs.BoolVar(&o.raw, rawFlag, false, "write the decoded bytes of the result's one image, audio or resource contents (a text resource: its text), or else its one text content exactly")
		_ = fs.SetAnnotation(rawFlag, outputFlagKey, nil)
	}
}

// validate checks the output flags before anything connects.
func (o *outputFlags) validate() error {
	switch o.format {
	case "", "text", "json":
	default:
		return usagef("--format must be text or json, got %q", o.format)
	}
	if o.raw && o.format != "" {
		return usagef("--raw writes the bytes of a content, not --format %s", o.format)
	}
	return checkOutputPath(o.file)
}

// checkOutputPath refuses, before anything connects, an --output path
// that cannot be written: a directory, or a file in a directory that does
// not exist. "" is stdout, always fine.
func checkOutputPath(path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("--output %s is a directory", termtext.Line(path))
	}
	target, err := atomicfile.Resolve(path)
	if err != nil {
		return usagef("--output %s: %w", termtext.Line(path), err)
	}
	if fi, err := os.Stat(filepath.Dir(target)); err != nil || !fi.IsDir() {
		return usagef("--output %s: its directory does not exist", termtext.Line(path))
	}
	return nil
}

// check refuses, before anything connects, raw bytes for a terminal.
func (o *outputFlags) check(s streams) error {
	if o.raw && o.file == "" && isTerminal(s.out) {
		return usagef("--raw writes binary bytes a terminal would garble: add --output FILE, or redirect stdout")
	}
	return nil
}

// printResult prints the result of method, whose JSON is doc, as the
// output flags say: its raw bytes (--raw), text (--format text, or a
// command that prints text at a terminal) rendered by text for the
// terminal's width (file: for a file, nothing cut), or JSON, indented at a
// terminal. With --output it goes into the file, whole or not at all, and
// stderr says so.
func (r *run) printResult(method string, doc []byte, text func(width int, file bool) string) error {
	o := r.flags.output
	var out []byte
	switch {
	case o.raw:
		b, err := resulttext.Payload(method, doc)
		var none *resulttext.NoPayloadError
		if errors.As(err, &none) {
			return usagef("--raw: %w", err)
		}
		if err != nil {
			return withExit(ExitProtocol, fmt.Errorf("--raw: %w", err))
		}
		out = b
	case r.asText():
		width := 0
		if o.file == "" {
			width = terminalWidth(r.io.out)
		}
		out = []byte(text(width, o.file != ""))
	default:
		b, err := formatJSON(doc, o.file == "" && r.io.pretty)
		if err != nil {
			return err
		}
		out = b
	}
	if o.file == "" {
		return writeResult(r.io.out, out)
	}
	if err := atomicfile.Write(o.file, out, 0o666, nil); err != nil {
		return withExit(ExitConnection, fmt.Errorf("cannot save the result: %w", err))
	}
	r.io.diag.Println(fmt.Sprintf("saved %d bytes to %s", len(out), termtext.Line(o.file)))
	return nil
}

// writeJSON prints a JSON value on w followed by a newline: indented when
// pretty (w is a terminal), compact otherwise (formatJSON).
func writeJSON(w io.Writer, raw []byte, pretty bool) error {
	out, err := formatJSON(raw, pretty)
	if err != nil {
		return err
	}
	return writeResult(w, out)
}

// formatJSON is a JSON value followed by a newline: indented when pretty,
// compact otherwise. The value's bytes are kept as the server sent them
// apart from whitespace, and when pretty apart from the characters a
// terminal would act on, written as \u escapes of the same value
// (termtext.JSON). Indentation stops growing past
// jsonindent.DefaultMaxDepth levels, so the output stays proportional to
// the result however deep it nests.
func formatJSON(raw []byte, pretty bool) ([]byte, error) {
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
		return nil, withExit(ExitProtocol, fmt.Errorf("the server's result is not valid JSON: %w", err))
	}
	return append(out, '\n'), nil
}

// writeResult writes a result's bytes on w.
func writeResult(w io.Writer, out []byte) error {
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
