package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/findings"
	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// SelectFrame shows the frame seq in the traffic, a filter that hides it
// cleared, and its bytes [off, off+n) in the hex pane, which gets the
// keys; an open screen stays behind the panes (ctrl+o returns). It is how
// the Findings view links a finding to its frame.
func (d driver) SelectFrame(seq uint64, off, n int) tea.Cmd {
	m := d.m
	if m.overlay != nil && !m.wireFront {
		m.flipWire()
	}
	var cmd tea.Cmd
	m.traffic.selectSeq(seq)
	if f, ok := m.traffic.selected(); (!ok || f.Seq != seq) && m.idx.filter != nil {
		cmd = m.applyFilter("")
		m.traffic.selectSeq(seq)
	}
	m.syncSelection()
	if f, ok := m.traffic.selected(); !ok || f.Seq != seq {
		m.status.note("the frame of that finding is no longer held")
		return cmd
	}
	m.setFocus(paneHex)
	m.hex.selectSpan(off, n)
	return cmd
}

// findingsPart is the status bar's count of the findings at the highest
// severity seen ("2 errors", "5 warnings", "1 note"), "" when none.
func (x *index) findingsPart() (text string, worst findings.Severity) {
	worst, n := x.views.findings.Worst()
	if n == 0 {
		return "", worst
	}
	return plural.Count(n, worst.String(), worst.String()+"s"), worst
}

// findingsSegment is the status bar's count of findings, coloured by the
// highest severity seen; ok is false when there are none.
func (m *Model) findingsSegment() (statusSegment, bool) {
	text, worst := m.idx.findingsPart()
	if text == "" {
		return statusSegment{}, false
	}
	st := m.styles
	style := st.StatusLabel
	switch worst {
	case findings.Error:
		style = st.StatusError
	case findings.Warning:
		style = st.StatusBar.Foreground(st.Warning)
	}
	return statusSegment{text: text, style: style}, true
}

// findingSeverity is the severity a finding term asks for; any says a
// finding of any severity will do.
type findingSeverity struct {
	any bool
	sev findings.Severity
}

// findingWord is the filter word of the frames with a finding.
const findingWord = "finding"

// isFindingWord says whether lw (lower case) is "finding" or
// "finding:SEVERITY".
func isFindingWord(lw string) bool {
	if lw == findingWord {
		return true
	}
	sev, ok := strings.CutPrefix(lw, findingWord+":")
	_, known := findings.ParseSeverity(sev)
	return ok && known
}

// findingTerm is the term of a finding word isFindingWord accepts.
func findingTerm(lw string) term {
	sev, ok := strings.CutPrefix(lw, findingWord+":")
	if !ok {
		return term{kind: termFinding, sev: findingSeverity{any: true}}
	}
	s, _ := findings.ParseSeverity(sev)
	return term{kind: termFinding, sev: findingSeverity{sev: s}}
}

// holds says whether the frame f has a finding of the severity asked.
func (s findingSeverity) holds(f *capture.Frame, x *index) bool {
	if s.any {
		_, ok := x.views.findings.Frame(f.Seq)
		return ok
	}
	return x.views.findings.FrameHas(f.Seq, s.sev)
}

// findingMark starts the label of a traffic row whose frame has a finding
// (the Findings view, the filter word "finding").
const findingMark = "! "
