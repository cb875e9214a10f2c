package question

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
)

// modelPreferences are the server's wishes for the model (sampling).
type modelPreferences struct {
	Hints []struct {
		Name string `json:"name"`
	} `json:"hints"`
	CostPriority         *float64 `json:"costPriority"`
	SpeedPriority        *float64 `json:"speedPriority"`
	IntelligencePriority *float64 `json:"intelligencePriority"`
}

// requestHeight is the lines left for the request above the reply.
func (v *samplingView) requestHeight() int {
	return max(v.h-v.replyLines()-3, 1)
}

// render draws the request (scrolled), the model name, the reply box and
// the note.
func (v *samplingView) render(w, h int) string {
	lines := v.requestLines(max(w, 1))
	top := max(h-v.replyLines()-3, 1)
	v.offset = min(v.offset, max(len(lines)-top, 0))
	shown := lines[v.offset:min(v.offset+top, len(lines))]
	out := append([]string{}, shown...)
	for len(out) < top {
		out = append(out, "")
	}
	rule := "── your reply, as the assistant "
	if more := len(lines) - v.offset - len(shown); more > 0 {
		rule = fmt.Sprintf("── %s above the reply (pgdn) · your reply, as the assistant ", plural.Count(more, "more line", "more lines"))
	}
	out = append(out, v.st.Ink.Muted.Paint(rule+strings.Repeat("─", max(w-ansi.StringWidth(rule), 0))))
	out = append(out, v.model.View(), v.reply.View())
	if v.note != "" {
		out = append(out, v.st.Ink.Warn.Paint(v.note))
	}
	return strings.Join(out, "\n")
}

// requestLines is requestText wrapped w cells wide, drawn again only when
// w changes: the request holds the server's images, each decoded to draw.
func (v *samplingView) requestLines(w int) []string {
	if v.request == nil || v.requestW != w {
		v.request = strings.Split(ansi.Hardwrap(ansi.Wordwrap(v.requestText(), w, ""), w, true), "\n")
		v.requestW = w
	}
	return v.request
}

// requestText is what the server sent: the system prompt, each message
// with its role, the model preferences and the limits.
func (v *samplingView) requestText() string {
	p, st := v.p, v.st
	var b strings.Builder
	if p.SystemPrompt != "" {
		b.WriteString(st.Ink.Muted.Paint("system prompt: ") + termtext.Block(p.SystemPrompt) + "\n")
	}
	if len(p.Messages) == 0 {
		b.WriteString(st.Ink.Muted.Paint("(no messages)") + "\n")
	}
	for _, m := range p.Messages {
		for _, c := range contentBlocks(m.Content) {
			b.WriteString(st.Ink.Muted.Paint("["+look.OneLine(m.Role)+"]") + " " + look.ContentItem(c, st) + "\n")
		}
	}
	if prefs := preferencesText(p.ModelPreferences); prefs != "" {
		b.WriteString(st.Ink.Muted.Paint("model preferences: ") + look.OneLine(prefs) + "\n")
	}
	limits := []string{"maxTokens " + strconv.Itoa(p.MaxTokens)}
	if p.Temperature != nil {
		limits = append(limits, "temperature "+strconv.FormatFloat(*p.Temperature, 'g', -1, 64))
	}
	if p.IncludeContext != "" {
		limits = append(limits, "includeContext "+look.OneLine(p.IncludeContext))
	}
	if len(p.StopSequences) > 0 {
		quoted := make([]string, len(p.StopSequences))
		for i, s := range p.StopSequences {
			quoted[i] = termtext.QuoteMax(s, look.OneLineMax)
		}
		limits = append(limits, "stop at "+strings.Join(quoted, ", "))
	}
	if n := arrayLen(p.Tools); n > 0 {
		limits = append(limits, plural.Count(n, "tool", "tools")+" offered (a text reply uses none)")
	}
	b.WriteString(st.Ink.Muted.Paint(strings.Join(limits, " · ")))
	return b.String()
}

// contentBlocks returns the blocks of a message's content: one block, or
// the array of them (2025-11-25).
func contentBlocks(raw json.RawMessage) []json.RawMessage {
	var many []json.RawMessage
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return []json.RawMessage{raw}
}

// preferencesText renders modelPreferences in one line; "" when absent.
func preferencesText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var p modelPreferences
	if json.Unmarshal(raw, &p) != nil {
		return string(raw)
	}
	var parts []string
	if len(p.Hints) > 0 {
		names := make([]string, 0, len(p.Hints))
		for _, h := range p.Hints {
			names = append(names, h.Name)
		}
		parts = append(parts, "hints "+strings.Join(names, ", "))
	}
	for _, pr := range []struct {
		name string
		v    *float64
	}{{"cost", p.CostPriority}, {"speed", p.SpeedPriority}, {"intelligence", p.IntelligencePriority}} {
		if pr.v != nil {
			parts = append(parts, pr.name+" "+strconv.FormatFloat(*pr.v, 'g', -1, 64))
		}
	}
	if len(parts) == 0 {
		return "none given"
	}
	return strings.Join(parts, " · ")
}

// arrayLen is the length of a JSON array, 0 for anything else.
func arrayLen(raw json.RawMessage) int {
	var a []json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return 0
	}
	return len(a)
}
