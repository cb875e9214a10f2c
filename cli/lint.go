package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/report"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/theme"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// lintFlags are the flags of `mcpscope lint` beside the connection's.
type lintFlags struct {
	format     string
	output     string
	tokenizers []string
	window     int
	artifact   string
	count      string
	verbose    bool
}

// register adds lint's own flags to fs, before the shared ones: its
// --format (text, json, sarif, junit) and --output take the place of the
// shared output flags, which step aside.
func (l *lintFlags) register(fs *pflag.FlagSet) {
	fs.String("format", "", "print the report as `FORMAT`: text, json, sarif or junit (default: text at a terminal, json otherwise; with --output, from the file's extension)")
	fs.String("output", "", "write the report to `FILE` instead of stdout")
	fs.StringSliceVar(&l.tokenizers, "tokenizer", tokencost.Encodings, "count tokens with these `ENCODINGS` (o200k_base, cl100k_base, p50k_base, r50k_base); the first sorts the table")
	fs.IntVar(&l.window, "window", tokencost.DefaultWindow, "the context window, in `TOKENS`, the total is a share of")
	fs.StringVar(&l.count, "count", tokencost.CountModel, "what of each tool, prompt and template to count: `model` (what a host puts in the model's context: a tool's name, description and input schema) or entry (the whole listing entry)")
	fs.BoolVar(&l.verbose, "verbose", false, "text: list every info finding (without it, one line a rule)")
	fs.StringVar(&l.artifact, "artifact", "", "SARIF: the repository `PATH` results point at (GitHub code scanning shows results on a file), such as server.json")
}

// read takes --format and --output from fs, whoever defined them.
func (l *lintFlags) read(fs *pflag.FlagSet) {
	l.format, _ = fs.GetString("format")
	l.output, _ = fs.GetString("output")
}

// formatOf is the report's format: --format, or the --output file's
// extension, or text at a terminal and JSON otherwise.
func (l *lintFlags) formatOf(terminal bool) (report.Format, error) {
	if l.format != "" {
		f, err := report.ParseFormat(l.format)
		if err != nil {
			return "", usagef("--format: %w", err)
		}
		return f, nil
	}
	if l.output != "" {
		name := strings.ToLower(l.output)
		switch {
		case strings.HasSuffix(name, ".sarif"), strings.HasSuffix(name, ".sarif.json"):
			return report.SARIF, nil
		case filepath.Ext(name) == ".xml":
			return report.JUnit, nil
		case filepath.Ext(name) == ".json":
			return report.JSON, nil
		}
		return report.Text, nil
	}
	if terminal {
		return report.Text, nil
	}
	return report.JSON, nil
}

// validate checks lint's flags before anything connects.
func (l *lintFlags) validate() error {
	l.tokenizers = tokencost.Unique(l.tokenizers)
	if len(l.tokenizers) == 0 {
		return usagef("--tokenizer needs at least one encoding")
	}
	for _, enc := range l.tokenizers {
		if !slices.Contains(tokencost.Known(), enc) {
			return usagef("--tokenizer: unknown encoding %q (known: %s)", enc, strings.Join(tokencost.Known(), ", "))
		}
	}
	if l.window <= 0 {
		return usagef("--window must be positive, got %d", l.window)
	}
	if l.count != tokencost.CountModel && l.count != tokencost.CountEntry {
		return usagef("--count must be %s or %s, got %q", tokencost.CountModel, tokencost.CountEntry, l.count)
	}
	return checkOutputPath(l.output)
}

// newLintCommand builds `mcpscope lint TARGET`.
func newLintCommand() *cobra.Command {
	f := &runFlags{}
	l := &lintFlags{}
	cmd := &cobra.Command{
		Use:   "lint [flags] TARGET",
		Short: "Check what a server offers the way clients read it, and its token cost",
		Long: "Check what a server offers the way clients read it, and its token cost.\n\n" +
			"lint lists the server's tools, prompts, resources and resource templates (every page),\n" +
			"checks them, and counts what each tool, prompt and resource template costs in a model's\n" +
			"context: what a host sends the model (a tool's name, description and input schema; --count\n" +
			"entry: the whole listing entry) as compact JSON, with real tokenizers, offline. It exits 6\n" +
			"when a finding of error severity exists.",
		Example: "  mcpscope lint -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope lint --format sarif --output lint.sarif --artifact server.json https://example.com/mcp",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			l.read(cmd.Flags())
			if err := l.validate(); err != nil {
				return err
			}
			target, err := f.onlyTarget(cmd, args)
			if err != nil {
				return err
			}
			io := streamsOf(cmd)
			format, err := l.formatOf(l.output == "" && io.pretty)
			if err != nil {
				return err
			}
			f.keepFindings = true // the wire findings of lint's session join the report
			return f.execute(cmd.Context(), target, io, func(ctx context.Context, r *run) error {
				return runLint(ctx, r, l, format)
			})
		},
	}
	l.register(cmd.Flags())
	f.register(cmd.Flags())
	return cmd
}

// runLint lists what the server offers, checks it, counts its cost and
// prints the report; a finding of error severity exits ExitLint.
func runLint(ctx context.Context, r *run, l *lintFlags, format report.Format) error {
	offer, err := listOffer(ctx, r)
	if err != nil {
		return err
	}
	entries := lintEntries(offer, l.count)
	// Counting is bounded like a request: a text built to make the
	// tokenizer slow stops at --max-time, and the report still prints,
	// its cost marked incomplete.
	countCtx, cancel := context.WithTimeout(ctx, r.flags.maxTime)
	defer cancel()
	cost, countErr := measureCost(countCtx, l.tokenizers, l.window, entries)
	if countErr != nil && !errors.Is(countErr, context.DeadlineExceeded) {
		return countErr
	}
	cost.Counted = l.count
	rep := report.Report{Target: lintTarget(r.target), ProtocolVersion: offer.ProtocolVersion,
		Findings: lint.WithWire(lint.Check(offer), r.findings.Found()), Rules: lint.Rules(), Cost: cost}
	if err := writeLintReport(ctx, r, l, format, rep); err != nil {
		return err
	}
	if countErr != nil {
		return withExit(ExitTimeout, fmt.Errorf("lint: %w (--max-time %s): the token cost counts %d of %d entries",
			countErr, r.flags.maxTime, len(cost.Items), len(entries)))
	}
	if n := rep.Errors(); n > 0 {
		return withExit(ExitLint, fmt.Errorf("lint: %s of error severity", plural.Count(n, "finding", "findings")))
	}
	return nil
}

// measureCost is tokencost.Measure; a test puts one that runs out of time
// in its place.
var measureCost = tokencost.Measure

// lintEntries are the entries whose cost lint counts: every tool, prompt
// and resource template, cut to what a host puts in the model's context
// unless count is tokencost.CountEntry.
func lintEntries(offer lint.Offer, count string) []tokencost.Entry {
	entries := append(tokencost.Entries(tokencost.KindTool, offer.Tools), tokencost.Entries(tokencost.KindPrompt, offer.Prompts)...)
	entries = append(entries, tokencost.Entries(tokencost.KindResourceTemplate, offer.ResourceTemplates)...)
	if count == tokencost.CountEntry {
		return entries
	}
	for i, e := range entries {
		entries[i] = e.ForModel()
	}
	return entries
}

// lintTarget names the target in a report: a configured server by its
// name, anything else as messages show it (a URL without its password).
func lintTarget(t Target) string {
	if t.Server != "" {
		return t.Server
	}
	return t.String()
}

// listOffer lists every page of what the server offers. A list the server
// does not declare a capability for is empty, and so is one it answers
// with -32601 (method not found).
func listOffer(ctx context.Context, r *run) (lint.Offer, error) {
	o := lint.Offer{ProtocolVersion: r.session.ProtocolVersion(), Transport: r.target.Transport}
	caps := client.Advertised(r.session.ServerCapabilities()) // nil: none to go by, ask for everything
	for _, l := range []struct {
		capability, method, field string
		into                      *[]json.RawMessage
	}{
		{"tools", mcp.MethodToolsList, "tools", &o.Tools},
		{"prompts", mcp.MethodPromptsList, "prompts", &o.Prompts},
		{"resources", mcp.MethodResourcesList, "resources", &o.Resources},
		{"resources", mcp.MethodResourceTemplatesList, "resourceTemplates", &o.ResourceTemplates},
	} {
		if caps != nil && !caps[l.capability] {
			continue
		}
		items, err := r.session.ListAll(ctx, l.method, l.field, nil)
		var rpc *client.RPCError
		switch {
		case errors.As(err, &rpc) && rpc.Err != nil && rpc.Err.Code == mcp.CodeMethodNotFound:
			items = nil
		case err != nil:
			return lint.Offer{}, err
		}
		*l.into = items
	}
	return o, nil
}

// writeLintReport prints the report on stdout, or into --output. On a
// terminal the text is coloured as the terminal allows (NO_COLOR is
// honoured) and JSON is indented with what a terminal acts on escaped.
func writeLintReport(ctx context.Context, r *run, l *lintFlags, format report.Format, rep report.Report) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	terminal := l.output == "" && r.io.pretty
	opts := report.Options{Version: Version(), Artifact: l.artifact, Verbose: l.verbose}
	if terminal && format == report.Text {
		p := theme.For(darkBackground(os.Getenv("COLORFGBG")))
		opts.Palette = &p
	}
	// The report is written straight to its file, or to stdout when
	// nothing reshapes it: a listing of 100,000 tools makes a report of
	// tens of megabytes, not worth a second copy.
	if l.output != "" {
		err := atomicfile.WriteFunc(l.output, func(w io.Writer) error { return report.Write(w, format, rep, opts) }, 0o666, nil)
		if err != nil {
			return withExit(ExitConnection, fmt.Errorf("lint: cannot save the report: %w", err))
		}
		r.io.diag.Println(fmt.Sprintf("saved the report to %s", termtext.Line(l.output)))
		return nil
	}
	if format == report.SARIF || terminal && format == report.JSON {
		var b bytes.Buffer
		if err := report.Write(&b, format, rep, opts); err != nil {
			return fmt.Errorf("lint: %w", err)
		}
		return writeJSON(r.io.out, b.Bytes(), terminal)
	}
	w := r.io.out
	if opts.Palette != nil {
		w = colorprofile.NewWriter(r.io.out, os.Environ())
	}
	if err := report.Write(w, format, rep, opts); err != nil {
		return withExit(ExitConnection, fmt.Errorf("lint: cannot write the report: %w", err))
	}
	return nil
}

// darkBackground guesses the terminal's background from COLORFGBG
// ("fg;bg", set by several terminals), dark when it says nothing: asking
// the terminal itself would cost a round trip, and seconds when it does
// not answer.
func darkBackground(colorfgbg string) bool {
	parts := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return true
	}
	return bg != 7 && bg < 9 // 7 and 9–15 are the light colours of the 16
}
