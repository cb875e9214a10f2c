package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/export"
)

// exportFormat writes a recording in one format and returns what was
// wrong with it and what the format left out.
type exportFormat func(w io.Writer, r *recordings.Reader) (recordings.Damage, []string, error)

// exportFormats are the formats of `mcpscope export --format`.
var exportFormats = map[string]exportFormat{
	"jsonl": func(w io.Writer, r *recordings.Reader) (recordings.Damage, []string, error) {
		d, err := export.WriteJSONL(w, r)
		return d, nil, err
	},
	"har": func(w io.Writer, r *recordings.Reader) (recordings.Damage, []string, error) {
		res, err := export.WriteHAR(w, r, Version())
		return res.Damage, res.Warnings, err
	},
	"text": func(w io.Writer, r *recordings.Reader) (recordings.Damage, []string, error) {
		d, err := writeTrace(w, r)
		return d, nil, err
	},
}

// newExportCommand builds `mcpscope export [--format jsonl|har|text] FILE`.
func newExportCommand() *cobra.Command {
	format := "jsonl"
	cmd := &cobra.Command{
		Use:   "export [--format jsonl|har|text] FILE",
		Short: "Write a recording as JSON Lines for jq, HAR for HTTP viewers, or trace text",
		Long: "export writes the recording FILE (- reads it from standard input) on standard output:\n\n" +
			"  jsonl  one JSON object a line, for jq: the header, then every frame with its exact\n" +
			"         bytes (\"text\" when UTF-8, else \"base64\"), annotations and message, and every\n" +
			"         stream mark and SSE event; \"kind\" says which (docs/export-formats.md)\n" +
			"  har    HAR 1.2 of a session over http, sse or tools-http, for browser dev tools\n" +
			"         and HAR viewers: every exchange with its headers, timings and bodies, SSE\n" +
			"         answers as text/event-stream text; another transport is a usage error (2)\n" +
			"  text   the lines --trace printed, one a frame\n\n" +
			"A recording cut short (a crash, a full disk) ends in a torn line: everything before\n" +
			"it is exported, a warning names the line, and export exits 0. A corrupt line is\n" +
			"skipped with a warning naming it; export writes the rest and exits 2.",
		Example: "  mcpscope export session.mcpscope.jsonl | jq 'select(.kind==\"frame\" and .dir==\"in\") | .message.method'\n" +
			"  mcpscope export --format har session.mcpscope.jsonl > session.har\n" +
			"  mcpscope export --format text - < session.mcpscope.jsonl",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("export takes one FILE, the recording (- reads it from standard input); got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runExport(cmd, format, args[0]) },
	}
	cmd.Flags().StringVar(&format, "format", format, "output `FORMAT`: jsonl, har or text")
	return cmd
}

// runExport writes the recording file in format on stdout and its damage
// as warnings on stderr.
func runExport(cmd *cobra.Command, format, file string) error {
	write, ok := exportFormats[format]
	if !ok {
		return usagef("unknown --format %s: use jsonl, har or text", quote(format))
	}
	r, err := openRecording(cmd, file)
	if err != nil {
		return err
	}
	defer r.Close()
	diag := &lineWriter{w: cmd.ErrOrStderr()}
	defer diag.Close()
	d, warnings, err := write(cmd.OutOrStdout(), r)
	for _, w := range warnings {
		diag.Println("warning: " + w)
	}
	var notHTTP *export.NotHTTPError
	if errors.As(err, &notHTTP) {
		return &UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	return reportDamage(diag, d)
}

// openRecording opens the recording a command line names; "-" is
// standard input. A file that cannot be read as a recording is a usage
// error.
func openRecording(cmd *cobra.Command, file string) (*recordings.Reader, error) {
	var (
		r   *recordings.Reader
		err error
	)
	if file == "-" {
		r, err = recordings.NewReader(cmd.InOrStdin())
		if err != nil {
			err = fmt.Errorf("standard input: %w", err)
		}
	} else {
		r, err = recordings.Open(file)
	}
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return r, nil
}

// reportDamage warns of a torn tail (expected after a crash: the export
// succeeds) and of corrupt lines (unexpected: the export fails with a
// usage error once the rest is written).
func reportDamage(diag *lineWriter, d recordings.Damage) error {
	for _, w := range d.Warnings(" and was exported") {
		diag.Println("warning: " + w)
	}
	if d.Skipped > 0 {
		return usagef("the recording holds %s that could not be read; everything else was exported", recordings.CorruptLines(d.Skipped))
	}
	return nil
}
