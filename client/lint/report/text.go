package report

import (
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// nameMax is the most bytes of a name or subject a text line shows.
const nameMax = 120

// severities are the groups of the text format, worst first.
var severities = []lint.Severity{lint.SeverityError, lint.SeverityWarning, lint.SeverityInfo}

// look paints the text format; its zero value paints nothing.
type look struct {
	severity map[lint.Severity]lipgloss.Style
	muted    lipgloss.Style
	head     lipgloss.Style
}

// lookOf builds the look of palette p (nil: plain).
func lookOf(p *theme.Palette) look {
	plain := lipgloss.NewStyle()
	l := look{severity: map[lint.Severity]lipgloss.Style{}, muted: plain, head: plain}
	if p == nil {
		return l
	}
	fg := func(c color.Color) lipgloss.Style { return plain.Foreground(c) }
	l.severity[lint.SeverityError] = fg(p.Error).Bold(true)
	l.severity[lint.SeverityWarning] = fg(p.Warning).Bold(true)
	l.severity[lint.SeverityInfo] = fg(p.Accent).Bold(true)
	l.muted, l.head = fg(p.Muted), plain.Bold(true)
	return l
}

// WriteText prints r for a person: the findings grouped by severity, each
// with its rule, subject, JSON path, message and fix; then the cost table,
// the dearest first, with the total and its share of the window. Every
// piece of server text is made safe for a terminal (termtext). A palette
// colours the severities and the table's heading. Info findings are
// folded, one line per rule (Options.Verbose lists them).
func WriteText(w io.Writer, r Report, p *theme.Palette) error {
	return writeText(w, r, Options{Palette: p})
}

// writeText is WriteText with the options that bear on text.
func writeText(w io.Writer, r Report, o Options) error {
	l := lookOf(o.Palette)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", l.head.Render("mcpscope lint"), termtext.LineMax(r.Target, termtext.ServerTextMax))
	if r.ProtocolVersion != "" {
		fmt.Fprintf(&b, " (protocol %s)", termtext.OneLine(r.ProtocolVersion))
	}
	b.WriteString("\n\n")
	writeFindings(&b, r, l, o.Verbose)
	if len(r.Cost.Encodings) > 0 {
		b.WriteString("\n")
		writeCost(&b, r.Cost, l)
	}
	b.WriteString("\n" + summary(r) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFindings prints the findings grouped by severity, worst first;
// info findings folded by rule unless verbose.
func writeFindings(b *strings.Builder, r Report, l look, verbose bool) {
	if len(r.Findings) == 0 {
		b.WriteString("no findings\n")
		return
	}
	for _, s := range severities {
		n := r.count(s)
		if n == 0 {
			continue
		}
		if s == lint.SeverityInfo && !verbose {
			fmt.Fprintf(b, "%s (%d), one line a rule (--verbose lists each)\n", l.severity[s].Render(groupName(s)), n)
			writeFolded(b, r.Findings, s)
			continue
		}
		fmt.Fprintf(b, "%s (%d)\n", l.severity[s].Render(groupName(s)), n)
		for _, f := range r.Findings {
			if f.Severity != s {
				continue
			}
			fmt.Fprintf(b, "  %s  %s  %s\n", termtext.OneLine(f.Rule), termtext.LineMax(f.Subject, nameMax), l.muted.Render(termtext.OneLine(f.Path)))
			fmt.Fprintf(b, "    %s\n", termtext.OneLine(f.Message))
			if f.Fix != "" {
				fmt.Fprintf(b, "    %s %s\n", l.muted.Render("fix:"), termtext.OneLine(f.Fix))
			}
		}
	}
	// A severity no group names (a rule's own) is shown apart, not lost.
	for _, f := range r.Findings {
		if f.Severity != lint.SeverityError && f.Severity != lint.SeverityWarning && f.Severity != lint.SeverityInfo {
			fmt.Fprintf(b, "%s  %s  %s  %s: %s\n", termtext.OneLine(string(f.Severity)), termtext.OneLine(f.Rule),
				termtext.LineMax(f.Subject, nameMax), termtext.OneLine(f.Path), termtext.OneLine(f.Message))
		}
	}
}

// groupName is the heading of a severity's group.
func groupName(s lint.Severity) string {
	switch s {
	case lint.SeverityError:
		return "errors"
	case lint.SeverityWarning:
		return "warnings"
	}
	return "info"
}

// kindNames are the kinds as a person reads them.
var kindNames = map[string]string{
	tokencost.KindTool:             "tool",
	tokencost.KindPrompt:           "prompt",
	tokencost.KindResourceTemplate: "resource template",
}

// writeCost prints the cost table: kind, name, the tokens in each
// encoding and the share of the window in the first, the dearest first;
// then the total.
func writeCost(b *strings.Builder, t tokencost.Table, l look) {
	first := t.Encodings[0]
	window := windowName(t.Window)
	fmt.Fprintf(b, "%s %s, the dearest first\n", l.head.Render("token cost"), countedWhat(t))
	headers := append(append([]string{"KIND", "NAME"}, upper(t.Encodings)...), "% OF "+window)
	tbl := table.New().Headers(headers...).
		Border(lipgloss.HiddenBorder()).BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).BorderHeader(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := lipgloss.NewStyle().PaddingRight(1)
			if row == table.HeaderRow {
				s = l.muted.PaddingRight(1)
			}
			if col >= 2 {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	for _, it := range t.Items {
		row := []string{kindNames[it.Kind], termtext.LineMax(it.Name, nameMax)}
		for _, enc := range t.Encodings {
			row = append(row, thousands(it.Tokens[enc]))
		}
		tbl.Row(append(row, percent(100*float64(it.Tokens[first])/float64(max(t.Window, 1))))...)
	}
	total := []string{"total", counted(t.Items)}
	for _, enc := range t.Encodings {
		total = append(total, thousands(t.Total[enc]))
	}
	tbl.Row(append(total, percent(t.Share(first)))...)
	for _, line := range strings.Split(tbl.Render(), "\n") {
		b.WriteString("  " + strings.TrimRight(line, " ") + "\n")
	}
}

// countedWhat says what of each entry the table counted, and whether
// counting stopped before the end.
func countedWhat(t tokencost.Table) string {
	what := "in the model's context (name, description, schema)"
	if t.Counted == tokencost.CountEntry {
		what = "of each whole listing entry"
	}
	if t.Uncounted > 0 {
		what += fmt.Sprintf(" (incomplete: counting stopped; %s counted, %d not)", plural.Count(len(t.Items), "entry", "entries"), t.Uncounted)
	}
	return what
}

// summary is the last line: the findings by severity and the total cost.
func summary(r Report) string {
	parts := []string{
		plural.Count(r.count(lint.SeverityError), "error", "errors"),
		plural.Count(r.count(lint.SeverityWarning), "warning", "warnings"),
		fmt.Sprintf("%d info", r.count(lint.SeverityInfo)),
	}
	line := strings.Join(parts, ", ")
	if len(r.Cost.Encodings) > 0 {
		first := r.Cost.Encodings[0]
		line += fmt.Sprintf("; %s tokens (%s), %s of a %s window", thousands(r.Cost.Total[first]), first, percent(r.Cost.Share(first)), windowName(r.Cost.Window))
		if r.Cost.Uncounted > 0 {
			line += fmt.Sprintf(" at least (%d entries not counted)", r.Cost.Uncounted)
		}
	}
	return line
}

// counted says how many of each kind the items hold: "11 tools, 2 prompts".
func counted(items []tokencost.Item) string {
	n := map[string]int{}
	for _, it := range items {
		n[it.Kind]++
	}
	var parts []string
	for _, k := range []string{tokencost.KindTool, tokencost.KindPrompt, tokencost.KindResourceTemplate} {
		if n[k] > 0 {
			parts = append(parts, plural.Count(n[k], kindNames[k], kindNames[k]+"s"))
		}
	}
	return strings.Join(parts, ", ")
}

// upper names each encoding in capitals, as a column heading.
func upper(encs []string) []string {
	out := make([]string, len(encs))
	for i, e := range encs {
		out[i] = strings.ToUpper(termtext.OneLine(e))
	}
	return out
}

// windowName is a window's size, short: "200k".
func windowName(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return thousands(n)
}

// percent prints a share with one decimal: "6.2%".
func percent(p float64) string { return strconv.FormatFloat(p, 'f', 1, 64) + "%" }

// thousands prints n with thousands separated by commas: "12,345".
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
