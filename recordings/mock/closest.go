package mock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/textdist"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of what an unmatched request's error carries.
const (
	// messageParamsMax is how much of the closest request's params the
	// error's message shows.
	messageParamsMax = 200
	// dataParamsMax is the largest params the error's data carries whole;
	// larger ones are left out.
	dataParamsMax = 4 << 10
	// methodNameMax is how much of a method name the edit distance reads.
	methodNameMax = 128
)

// unmatched is the error answer of a request the recording does not hold.
type unmatched struct {
	code    int
	message string
	closest *exchange
}

// closestRequest is the data of an unmatched request's error.
type closestRequest struct {
	Closest struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params,omitempty"`
	} `json:"closest"`
}

// answer is the error response to the client's request id.
func (u *unmatched) answer(id json.RawMessage) []byte {
	if u.closest == nil {
		return errorAnswer(id, u.code, u.message, nil)
	}
	var data closestRequest
	data.Closest.Method = u.closest.method
	if len(u.closest.params) <= dataParamsMax {
		data.Closest.Params = u.closest.params
	}
	return errorAnswer(id, u.code, u.message, data)
}

// closestOf is the error of a recorded method asked with params no
// recorded request has: best differs in fewest members, as rep says; the
// message names the first differing paths with both values.
func closestOf(method string, best *exchange, rep jsondiff.Report) *unmatched {
	n := len(rep.Diffs) + rep.Omitted
	return &unmatched{code: mcp.CodeInvalidParams, closest: best, message: fmt.Sprintf(
		"the recording holds no %s request with these params; the closest differs in %s (%s): %s %s",
		oneLine(method), plural.Count(n, "member", "members"), differingPaths(rep), oneLine(method), paramsText(best.params))}
}

// Bounds of the differing paths an unmatched request's message names.
const (
	pathsShown = 3  // differences named
	valueShown = 60 // characters of each value
)

// differingPaths names the first differences of rep: PATH: recorded V,
// got W; "…and N more" for the rest.
func differingPaths(rep jsondiff.Report) string {
	var parts []string
	for _, d := range rep.Diffs[:min(len(rep.Diffs), pathsShown)] {
		recorded, sent := jsondiff.Render(d.Old, valueShown), jsondiff.Render(d.New, valueShown)
		switch d.Kind {
		case jsondiff.Added:
			recorded = "(none)"
		case jsondiff.Removed:
			sent = "(none)"
		}
		parts = append(parts, fmt.Sprintf("%s: recorded %s, got %s", termtext.Ellipsis(d.Path().String(), valueShown), recorded, sent))
	}
	if more := len(rep.Diffs) + rep.Omitted - len(parts); more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return oneLine(strings.Join(parts, "; "))
}

// closestMethod is the error of a method the recording does not hold: it
// names the recorded method nearest by edit distance, and its first
// recorded params.
func (r *Recording) closestMethod(method string) *unmatched {
	u := &unmatched{code: mcp.CodeMethodNotFound}
	best, dist := "", -1
	for _, m := range r.methods {
		if d := textdist.Distance(method[:min(len(method), methodNameMax)], m[:min(len(m), methodNameMax)], methodNameMax); dist < 0 || d < dist {
			best, dist = m, d
		}
	}
	if best == "" {
		u.message = fmt.Sprintf("the recording holds no %s request", oneLine(method))
		return u
	}
	u.closest = r.byMethod[best][0]
	u.message = fmt.Sprintf("the recording holds no %s request; the closest recorded is %s %s",
		oneLine(method), oneLine(best), paramsText(u.closest.params))
	return u
}

// paramsText is params in a message: one line, bounded.
func paramsText(p json.RawMessage) string {
	return termtext.Ellipsis(oneLine(string(p)), messageParamsMax)
}

// oneLine is text from the client or the recording made safe for one line
// of a message, bounded.
func oneLine(s string) string { return termtext.Ellipsis(termtext.OneLine(s), termtext.ServerTextMax) }
