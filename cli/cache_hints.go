package cli

import "github.com/mcpscope/mcpscope/proto/mcp"

// asText says the result is printed as text: --format text, or at a
// terminal with no --format, --output nor --raw.
func (r *run) asText() bool {
	o := r.flags.output
	return !o.raw && (o.format == "text" || o.format == "" && o.file == "" && r.io.text)
}

// noteCacheHint keeps the cache hint (2026-07-28 ttlMs, cacheScope) of a
// result of method, to be said on stderr after the result is printed as
// text; a result without one is not noted.
func (r *run) noteCacheHint(method string, h mcp.CacheHint) {
	if h.Present {
		r.cached = append(r.cached, "cache hint: "+method+" "+h.Text())
	}
}

// sayCacheHints prints the noted cache hints on stderr, one line each,
// when the result went out as text: JSON keeps them in the result.
func (r *run) sayCacheHints() {
	if r.asText() {
		for _, l := range r.cached {
			r.io.diag.Println(l)
		}
	}
	r.cached = nil
}
