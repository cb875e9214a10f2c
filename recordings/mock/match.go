package mock

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// maxScan bounds how many recorded requests of one method a request that
// has no exact match is compared with, to find an equal one (the paths
// of --ignore make requests equal whose keys differ) or the closest.
const maxScan = 4096

// match picks the recorded request that answers method with params: nil
// and no failure for a ping the recording lacks. A request whose
// canonical params (volatile members left out) are recorded is found at
// once; any other is compared with at most maxScan recorded requests of
// its method.
func (c *Conn) match(method string, params json.RawMessage) (*exchange, *unmatched) {
	cands := c.rec.byMethod[method]
	switch {
	case len(cands) > 0 && (method == mcp.MethodInitialize || method == mcp.MethodDiscover):
		return cands[0], nil
	case len(cands) == 0 && method == mcp.MethodPing:
		return nil, nil
	case len(cands) == 0:
		return nil, c.rec.closestMethod(method)
	}
	doc, err := jsondiff.Decode(paramsDocument(params))
	if err != nil {
		return nil, &unmatched{code: mcp.CodeInvalidParams, message: "params are not JSON: " + oneLine(err.Error())}
	}
	if k, ok := matchKey(method, doc); ok {
		if equal := c.rec.byKey[k]; len(equal) > 0 {
			return c.next(equal), nil
		}
	}
	var equal []*exchange
	var best *exchange
	var bestReport jsondiff.Report
	fewest := -1
	for _, ex := range cands[:min(len(cands), maxScan)] {
		if ex.doc == nil {
			continue
		}
		rep := jsondiff.Compare(ex.doc, doc, c.rec.opts)
		n := len(rep.Diffs) + rep.Omitted
		if n == 0 {
			equal = append(equal, ex)
		}
		if fewest < 0 || n < fewest {
			best, bestReport, fewest = ex, rep, n
		}
	}
	switch {
	case len(equal) > 0:
		return c.next(equal), nil
	case best == nil:
		return nil, &unmatched{code: mcp.CodeInvalidParams, message: "the recording holds no " + oneLine(method) + " request it can compare"}
	}
	return nil, closestOf(method, best, bestReport)
}

// next serves the first of equal this Conn has not served, else the
// last again.
func (c *Conn) next(equal []*exchange) *exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ex := range equal {
		if !c.served[ex] {
			c.served[ex] = true
			return ex
		}
	}
	return equal[len(equal)-1]
}

// matchKey is the exact-match key of a request: its method and its
// params document with the volatile members left out at any depth, as
// canonical JSON (members in name order). ok is false for a document
// that does not decode.
func matchKey(method string, doc any) (string, bool) {
	if doc == nil {
		return "", false
	}
	b, err := json.Marshal(withoutVolatile(doc))
	if err != nil {
		return "", false
	}
	return method + "\x00" + string(b), true
}

// withoutVolatile is v less the members no match compares.
func withoutVolatile(v any) any {
	switch t := v.(type) {
	case map[string]any:
		o := make(map[string]any, len(t))
		for k, e := range t {
			if !against.IsVolatile(k) {
				o[k] = withoutVolatile(e)
			}
		}
		return o
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = withoutVolatile(e)
		}
		return a
	}
	return v
}

// paramsDocument is the document a match compares: {"params": …}, the
// engine's own _meta members left out and absent params taken as {}.
func paramsDocument(params json.RawMessage) []byte {
	return wrapParams(normalParams(against.RequestParams(params)))
}

// wrapParams is the document of params already normalised: {"params": p}.
func wrapParams(p json.RawMessage) []byte {
	return append(append([]byte(`{"params":`), p...), '}')
}
