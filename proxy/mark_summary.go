package proxy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// Summary says in one line what m says the proxy did: "paused tools/call
// echo #2", "edited tools/call echo #2: seq 14 went instead", "injected
// tools/list · id mcpscope-…-1", "kept from host · answer to tools/list",
// "fault: delay 2s · tools/call echo: …", "viewer missed 3 frames". The
// words are m's own, which a host or server may have chosen (a method, a
// tool): render them through a sanitizer.
func (m Mark) Summary() string {
	what := strings.TrimSpace(m.Method + " " + m.Tool)
	held := ""
	if m.Held > 0 {
		held = " #" + strconv.FormatUint(m.Held, 10)
	}
	var s string
	switch m.What {
	case WhatPaused:
		s = "paused " + what + held
	case WhatForwarded:
		s = "forwarded " + what + held
	case WhatEdited:
		s = "edited " + what + held
		if m.Seq > 0 {
			s += ": seq " + strconv.FormatUint(m.Seq, 10) + " went instead"
		}
	case WhatDropped:
		s = joinWhy("dropped "+what+held, m.Note)
	case WhatReleased:
		s = joinWhy("released "+what+held, m.Note)
	case WhatInjected:
		s = "injected " + what + idWords(m.ID)
	case WhatKept:
		s = "kept from host · answer to " + what + idWords(m.ID)
	case WhatFault:
		s = "fault"
		if rule := faultAction(m.Rule); rule != "" {
			s += ": " + rule
		}
		if what != "" {
			s += " · " + what
		}
		s = joinWhy(s, m.Note)
	case WhatMissed:
		s = "viewer missed " + missedWords(m.Note)
	case WhatJoined:
		s = joinWhy("viewer joined late", m.Note)
	case WhatRecording:
		s = joinWhy("recording stopped", m.Note)
	case WhatEnded:
		s = joinWhy("session ended", m.Note)
	default:
		s = joinWhy("proxy "+m.What, m.Note)
	}
	return strings.Join(strings.Fields(s), " ")
}

// idWords is " · id ID" for a mark's id (a string id unquoted), or "".
func idWords(id string) string {
	if id == "" {
		return ""
	}
	return " · id " + PlainID(id)
}

// PlainID is a Mark's ID as a person reads it: a string id (which a mark
// holds as JSON writes it, quoted) unquoted, any other id as it is.
func PlainID(id string) string {
	if s, err := strconv.Unquote(id); err == nil {
		return s
	}
	return id
}

// joinWhy is s, then ": why" when there is a why.
func joinWhy(s, why string) string {
	if why == "" {
		return s
	}
	return s + ": " + why
}

// missedWords says how many frames a viewer missed: a missed mark's note
// starts with the count ("12 frames skipped: …"), or says it in other
// words.
func missedWords(note string) string {
	var n int64
	if _, err := fmt.Sscanf(note, "%d", &n); err == nil {
		return plural.Count(n, "frame", "frames")
	}
	return note
}

// faultAction is what a fault mark's rule does, without its number and
// match ("fault rule 1: delay 2s on method=tools/call" → "delay 2s").
func faultAction(rule string) string {
	if _, r, ok := strings.Cut(rule, ": "); ok && strings.HasPrefix(rule, "fault rule ") {
		rule = r
	}
	rule, _, _ = strings.Cut(rule, " on ")
	return rule
}
