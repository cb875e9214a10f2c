package mock

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
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
func (u *unmatched) answer(id jsonrpc.ID) []byte {
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
// recorded request has: best differs in fewest members.
func closestOf(method string, best *exchange, differing int) *unmatched {
	return &unmatched{code: mcp.CodeInvalidParams, closest: best, message: fmt.Sprintf(
		"the recording holds no %s request with these params; the closest differs in %s: %s %s",
		oneLine(method), plural.Count(differing, "member", "members"), oneLine(method), paramsText(best.params))}
}

// closestMethod is the error of a method the recording does not hold: it
// names the recorded method nearest by edit distance, and its first
// recorded params.
func (r *Recording) closestMethod(method string) *unmatched {
	u := &unmatched{code: mcp.CodeMethodNotFound}
	best, dist := "", -1
	for _, m := range r.methods {
		if d := editDistance(method, m); dist < 0 || d < dist {
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

// editDistance is the Levenshtein distance of a and b, each read up to
// methodNameMax bytes.
func editDistance(a, b string) int {
	a, b = a[:min(len(a), methodNameMax)], b[:min(len(b), methodNameMax)]
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
